import Hummingbird

/// Header lookups by lowercase name, without spelling out `HTTPField.Name` constructors.
enum HTTPHeader {
    /// The first value of header `name`, or nil.
    static func value(_ name: String, in headers: HTTPFields) -> String? {
        headers.first { $0.name.canonicalName == name }?.value
    }
}
