/// The captured facts feed with its images on this server, every other byte as captured (the
/// feed's Latin-1 byte included).
///
/// The captured `imageHref`s point at 2012-era hosts, dead or unreachable offline. Each becomes a
/// generated image here, except one, which stays dead on purpose: the real feed always had a
/// broken image, and the Facts screen must show it as a neat placeholder.
enum FactsImages {
    /// The row (0-based, among rows with an image) whose image never loads.
    static let brokenRow = 3

    static func render(_ facts: [UInt8], base: String) -> [UInt8] {
        let key = Array("\"imageHref\"".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(facts.count + 1024)
        var index = 0
        var row = 0
        while index < facts.count {
            guard facts[index...].starts(with: key) else {
                output.append(facts[index])
                index += 1
                continue
            }
            output.append(contentsOf: key)
            index += key.count
            // Up to the value: a colon and spaces.
            while index < facts.count, facts[index] != UInt8(ascii: "\""), facts[index] != UInt8(ascii: "n") {
                output.append(facts[index])
                index += 1
            }
            guard index < facts.count, facts[index] == UInt8(ascii: "\"") else { continue }  // null
            var end = index + 1
            while end < facts.count, facts[end] != UInt8(ascii: "\"") { end += 1 }
            let path = row == brokenRow ? "/images/gone/\(row)" : "/images/facts/\(row)/192x144bb.png"
            output.append(contentsOf: Array("\"\(base)\(path)\"".utf8))
            index = end + 1
            row += 1
        }
        return output
    }
}
