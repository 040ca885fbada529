/// Why the demo server could not start or serve.
public enum DemoError: Error, Sendable, Hashable {
    /// A bundled payload is missing from the module's resources.
    case missingResource(String)
    /// A bundled payload is not in the shape the server expects.
    case malformedResource(String)
}
