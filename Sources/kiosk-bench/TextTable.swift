/// A fixed-width text table for benchmark reports: rows print as soon as they are known, so a
/// long run shows progress, and columns still line up.
struct TextTable {
    /// One column: its heading, its width in characters and which side it hugs.
    struct Column: Sendable {
        var title: String
        var width: Int
        var leftAligned: Bool

        init(_ title: String, width: Int, leftAligned: Bool = false) {
            self.title = title
            self.width = max(width, title.count)
            self.leftAligned = leftAligned
        }
    }

    var columns: [Column]

    /// The heading line and a rule under it.
    var header: String {
        let titles = line(columns.map(\.title))
        return titles + "\n" + String(repeating: "-", count: titles.count)
    }

    /// One row; missing cells are blank. A cell wider than its column pushes the rest right rather
    /// than being cut, since a truncated error message helps nobody.
    func line(_ cells: [String]) -> String {
        var text = ""
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? cells[index] : ""
            let padding = String(repeating: " ", count: max(0, column.width - cell.count))
            if index > 0 { text += "  " }
            text += column.leftAligned ? cell + padding : padding + cell
        }
        while text.last == " " { text.removeLast() }
        return text
    }
}
