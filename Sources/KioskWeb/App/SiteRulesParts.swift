import Foundation
import KioskCore
import KioskHTML
import KioskReader

extension WebDependencies.Parts {
    /// Reads the per-site rules file (`siteRules`) once, at start: a rule that cannot be used
    /// stops Kiosk with the reason, as a bad config file does, rather than being ignored.
    public static func loadSiteRules(_ path: String) throws -> SiteRules {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StartupError("cannot read the site rules \(path): \(error.localizedDescription)")
        }
        do {
            return try SiteRules(json: Array(data))
        } catch {
            throw StartupError("\(path): \(error.description)")
        }
    }

    /// KioskCore's extractor, with the rule for each page's host when there is one.
    public static func extractor(siteRules: SiteRules) -> ArticleService.Extract {
        { bytes, url, charset in
            try ArticleExtractor.extract(bytes, url: url.absoluteString, charsetHint: charset, rule: siteRules.rule(for: url))
        }
    }
}
