/// Node indices in 32 bits, as the tree keeps its own (`ArticleDocument.Node`): the lists the
/// extraction makes of a large page's elements (those to score, those a cleaning pass judges) take
/// half the memory an `[Int]` would, and read as `Int`s.
struct NodeList: RandomAccessCollection {
    private var storage: [Int32] = []

    init() {}

    var startIndex: Int { storage.startIndex }
    var endIndex: Int { storage.endIndex }
    subscript(position: Int) -> Int { Int(storage[position]) }

    mutating func append(_ index: Int) {
        storage.append(Int32(truncatingIfNeeded: index))
    }
}
