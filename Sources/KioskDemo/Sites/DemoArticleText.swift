/// The body of a demo article page beyond its feed summary: paragraphs in the voice of each desk,
/// written for Kiosk (no captured text), chosen per story by a stable hash so every page reads
/// differently and the same page reads the same on every run.
enum DemoArticleText {
    /// A story's paragraphs after its lead, its subheading and a quotation, for `source`.
    static func body(for source: DemoSource, seed: UInt64) -> (paragraphs: [String], subheading: String, quote: String) {
        let bank = paragraphs(source)
        let count = 5
        let first = Int(seed % UInt64(bank.count))
        let chosen = (0..<min(count, bank.count)).map { bank[(first + $0 * 3) % bank.count] }
        let heads = subheadings(source)
        let quotes = quotations(source)
        return (
            chosen, heads[Int((seed >> 8) % UInt64(heads.count))], quotes[Int((seed >> 16) % UInt64(quotes.count))]
        )
    }

    private static func paragraphs(_ source: DemoSource) -> [String] {
        switch source {
        case .entertainment: entertainment
        case .environment: environment
        default: business
        }
    }

    private static func subheadings(_ source: DemoSource) -> [String] {
        switch source {
        case .entertainment: ["What the audience saw", "Behind the scenes", "A crowded season"]
        case .environment: ["What the data show", "The cost of waiting", "Who pays, and when"]
        default: ["What analysts expect", "A test for the board", "The numbers behind it"]
        }
    }

    private static func quotations(_ source: DemoSource) -> [String] {
        switch source {
        case .entertainment:
            [
                "We made the thing we wanted to see, and then we hoped other people would want to see it too.",
                "Nobody in the room knew whether it would work until the first audience laughed.",
            ]
        case .environment:
            [
                "The measurements are not ambiguous any more; what is still open is how fast we act on them.",
                "Every season we wait makes the next step more expensive for the same towns.",
            ]
        default:
            [
                "We are not changing the strategy, we are changing how fast we carry it out.",
                "The market will judge the plan by the next two quarters, not by the announcement.",
            ]
        }
    }

    private static let business = [
        "The company did not give a timetable, but people familiar with the talks said the details could be settled within weeks, subject to approval by regulators in at least two countries. Its shares moved little in early trading as investors waited for the figures behind the announcement.",
        "Analysts said the decision reflected pressure that has built across the sector for more than a year: higher borrowing costs, customers who compare prices more carefully, and suppliers that have passed on their own rising costs. Several rivals have made similar moves in recent months.",
        "In a note to clients, one brokerage said the plan was sensible but late, and that the savings promised would take at least two years to show in the accounts. It kept its rating unchanged and lowered its price target slightly.",
        "Employees were told of the changes in a message on Monday morning. A union representative said staff had learned more from the press than from management and asked for a meeting before any decision affecting jobs was taken.",
        "The board is expected to present a fuller picture at the annual meeting, where shareholders will vote on the proposal. Two large investors have said publicly that they want more detail on how the proceeds will be used before they commit.",
        "Regulators have become more attentive to deals of this size. A spokesperson for the competition authority said it would look at the effect on prices in the regions where the two businesses overlap, as it does for every transaction above the legal threshold.",
        "The results for the last quarter, published alongside the statement, showed revenue slightly ahead of forecasts and margins slightly below. Management blamed the difference on one-off costs and said the underlying trend was improving.",
        "Smaller competitors may benefit in the short term. Industry consultants said customers often use a period of uncertainty to test other suppliers, and that the months after an announcement like this are when market shares move most.",
    ]

    private static let entertainment = [
        "The premiere drew a crowd of several hundred fans who waited outside for hours, many of them holding posters and phones above the barriers. Inside, the cast spoke briefly before the screening and thanked the crew members who had worked through two winters of filming.",
        "Critics were divided after the first showings. Some praised the performances and the score, while others found the second half long and the ending rushed. Almost all agreed that the central role would be talked about for the rest of the season.",
        "The production had a difficult path to the screen. Filming was interrupted twice, the original director left over creative differences, and the budget grew by a third. The studio nonetheless kept its release date, betting on a crowded holiday weekend.",
        "Ticket sellers reported strong advance sales in large cities and weaker interest elsewhere, a pattern that has become common for films aimed at adult audiences. Streaming rights were sold before release, which limits the studio's risk if the cinema run is short.",
        "Music plays an unusual part in the story. The soundtrack was recorded live with a small band on set rather than added afterwards, and several of the songs were written by the actors themselves during rehearsals.",
        "Industry observers said the reception would shape the next round of deals. Agents and producers watch these weekends closely, and a strong opening for an original story makes it easier to finance others that are not sequels or adaptations.",
        "Away from the red carpet, the festival has tried to widen its programme, with more films from first-time directors and a series of free outdoor screenings. Organisers said attendance at those events had doubled compared with last year.",
        "The lead actor said in an interview that the role had been the hardest of their career, requiring months of training and a new accent, and that they had nearly turned it down. They credited the director for rewriting scenes around the cast's suggestions.",
    ]

    private static let environment = [
        "Scientists involved in the study said the findings matched what field teams had been reporting for several years, but that the new measurements covered a far larger area and a longer period. The data will be published in full so other groups can check them.",
        "Local officials welcomed the attention but said money, not information, was the main obstacle. Several towns along the coast have plans ready for flood defences and water storage, and are waiting for funding that has been promised more than once.",
        "Campaign groups said the announcement did not go far enough and called for binding targets with dates attached. Industry representatives, for their part, warned that rules introduced too quickly would raise costs for households and cost jobs in the regions that depend on heavy industry.",
        "The changes are already visible to people who work outdoors. Farmers in the area describe planting earlier than their parents did, fishermen report species moving north, and foresters say pests that once died off in winter now survive it.",
        "Economists who have modelled the options say the cheapest path combines several measures: pricing emissions, investing in grids and storage, and helping households replace old heating systems. None of these alone is enough, they said, and delays add to the total bill.",
        "The report also points to gaps in monitoring. Many rivers and wetlands have no regular measurements at all, and satellite data cannot replace samples taken on the ground. Researchers asked for long-term funding for stations that are currently paid for year by year.",
        "International talks later this year will test how far governments are willing to go. Negotiators said the most difficult issue remained money for poorer countries, which have contributed least to the problem and face some of the largest costs.",
        "Volunteers have filled some of the gaps. Across the region, citizen science groups now count birds, test water and record the first flowers of spring, and their records have been used in several published studies, including this one.",
    ]
}
