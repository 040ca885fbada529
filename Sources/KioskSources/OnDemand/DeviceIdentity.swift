import Foundation

/// This installation's identity: one UUID made on first use and kept in the data directory
/// (Switter hands out jokes without repeats per `x-device-uuid`).
public enum DeviceIdentity {
    /// The UUID stored in `directory/device-id`, created there if missing or unreadable.
    public static func loadOrCreate(in directory: URL) throws -> UUID {
        let file = directory.appendingPathComponent("device-id")
        if let data = try? Data(contentsOf: file),
            let text = String(data: data, encoding: .utf8),
            let id = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return id
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let id = UUID()
        try Data(id.uuidString.utf8).write(to: file, options: .atomic)
        return id
    }
}
