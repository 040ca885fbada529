import Foundation

/// Reads the news category list TorAlarm bundled: `[{"id", "name", "icon"}, ...]`, trailing comma and all.
public enum CategoryListParser {
    /// Parses the category list into NewsAPI category ids (`business`, `sports`...), in file order.
    /// Trailing commas are tolerated; entries may also be bare strings; entries without an id are skipped.
    /// - Throws: ``SeedError/notJSON(_:)``, or ``SeedError/unexpectedShape(_:)`` when the top level is not a list.
    public static func parse(_ data: Data) throws(SeedError) -> [String] {
        guard let entries = try SeedJSON.parse(data).array else {
            throw .unexpectedShape("expected a list of categories")
        }
        return entries.compactMap { $0.text ?? $0["id"]?.text }
    }
}
