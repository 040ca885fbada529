import KioskModel

/// Why ``ImagePipeline`` could not produce an image. Every failure of the pipeline is one of these.
public enum ImageError: Error, Sendable, Hashable {
    /// The URL is not http or https.
    case invalidURL(String)
    /// Fetching failed (status, timeout, network...).
    case fetch(FetchError)
    /// The source did not say `image/*`, said SVG, or the bytes do not start with a known image signature.
    case notAnImage
    /// The image is larger than the pipeline's `maxImageBytes`.
    case tooLarge(limit: Int)
    /// This caller was cancelled; the shared fetch goes on for the others.
    case cancelled
}

extension ImageError: CustomStringConvertible {
    /// A sentence fit for a log line.
    public var description: String {
        switch self {
        case .invalidURL(let url): "not an http(s) URL: \(url)"
        case .fetch(let error): "the image could not be fetched: \(error)"
        case .notAnImage: "the answer is not an image Kiosk serves"
        case .tooLarge(let limit): "the image is larger than \(limit) bytes"
        case .cancelled: "the request for the image was cancelled"
        }
    }
}
