/// Generated PNGs kept in memory, oldest dropped first once the byte budget is spent.
actor ImageCache {
    private let budget: Int
    private var images: [String: [UInt8]] = [:]
    private var order: [String] = []
    private var bytes = 0

    init(budget: Int = 64 << 20) {
        self.budget = budget
    }

    func image(for key: String) -> [UInt8]? {
        images[key]
    }

    func store(_ image: [UInt8], for key: String) {
        guard images[key] == nil, image.count <= budget else { return }
        while bytes + image.count > budget, !order.isEmpty {
            let oldest = order.removeFirst()
            bytes -= images.removeValue(forKey: oldest)?.count ?? 0
        }
        images[key] = image
        order.append(key)
        bytes += image.count
    }
}
