/// Tells a misspelt field (`titel:`) from ordinary text that happens to hold a colon
/// (`http://x`, `10:30`, `Re:`), so only the first is an error, and names the field meant.
enum QueryFieldSuggestion {
    /// Every prefix a query accepts, without the colon.
    static let prefixes = QueryField.allCases.map(\.name) + ["is", "date"]

    /// Names people try for a field: they are suggested on an exact match only.
    private static let aliases: [String: String] = ["title": "intitle", "url": "inurl", "tag": "label", "tags": "label"]

    /// The stems `intitle` and `inurl` are built on, which typos usually aim at (`titel:`).
    private static let stems: [String: String] = ["title": "intitle", "url": "inurl"]

    /// The prefix `name` (lower case, no colon) probably meant, or nil when it looks like text.
    ///
    /// Short names tolerate less: within two edits, "is" would claim "in", "it" and "at", "date"
    /// "rate", and "label" "late". So two-letter names allow no edit, names of three or four
    /// letters one that keeps the first letter, five letters one, and longer names two.
    static func suggestion(for name: String) -> String? {
        if let alias = aliases[name] { return alias }
        let typed = Array(name.unicodeScalars)
        var best: (prefix: String, distance: Int)?
        for (candidate, prefix) in prefixes.map({ ($0, $0) }) + stems.map({ ($0.key, $0.value) }) {
            let target = Array(candidate.unicodeScalars)
            let allowed: Int
            switch target.count {
            case ...2: allowed = 0
            case 3...4: allowed = typed.first == target.first ? 1 : 0
            case 5: allowed = 1
            default: allowed = 2
            }
            guard allowed > 0, abs(typed.count - target.count) <= allowed else { continue }
            let distance = editDistance(typed, target)
            if distance <= allowed, distance < best?.distance ?? Int.max {
                best = (prefix, distance)
            }
        }
        return best?.prefix
    }

    /// Edits (insertions, deletions, substitutions and swaps of neighbours) from `a` to `b`:
    /// the optimal string alignment distance, so a swapped pair such as "el"/"le" costs one.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        for i in 1...a.count {
            let rowBefore = previousRow
            previousRow = row
            row = [Int](repeating: 0, count: b.count + 1)
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rowBefore[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
