import AsyncHTTPClient
import Foundation
import KioskModel
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSOCKS
import NIOSSL

extension FetchError {
    /// Longest error description kept from a lower layer; some describe whole buffers.
    static let descriptionLimit = 200

    /// Maps whatever AsyncHTTPClient, SwiftNIO or the body reader threw onto a ``FetchError``.
    ///
    /// `url` and `maxBytes` are the request's, reported in ``invalidURL(_:)`` and when the
    /// decompressor refused a bomb.
    init(translating error: any Error, url: String, maxBytes: Int) {
        switch error {
        case let error as FetchError:
            self = error
        case let error as HTTPClientError:
            self = Self(translating: error, url: url)
        case let error as ChannelError:
            if case .connectTimeout = error {
                self = .timeout
            } else {
                self = .network("connection failed: \(error)")
            }
        case let error as IOError:
            self = Self(translating: error)
        case let error as NIOSSLError:
            self = .tls(Self.reason(error))
        case let error as NIOSSLExtraError:
            self = .tls(error == .failedToValidateHostname
                ? "the server's certificate is not for its name" : Self.trimmed(String(describing: error)))
        case let error as SOCKSError.ConnectionFailed:
            self = Self(translating: error)
        case HTTPParserError.invalidEOFState:
            self = .network("the connection closed before the answer was complete")
        case let error as NIOHTTPDecompression.DecompressionError:
            // .limit: the ratio cap of `makeClient` caught a decompression bomb.
            self = error == .limit ? .tooLarge(limit: maxBytes) : .network("the body could not be decompressed")
        case let error as NIOHTTPDecompression.ExtraDecompressionError:
            self = .network("the body could not be decompressed (\(error))")
        case let error as HTTPParserError:
            self = .network("the server's answer is not valid HTTP (\(error))")
        case is CancellationError:
            self = .network("the request was cancelled")
        default:
            self = .network(Self.trimmed(String(describing: error)))
        }
    }

    private init(translating error: HTTPClientError, url: String) {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
            .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .getConnectionFromPoolTimeout:
            self = .timeout
        case .redirectLimitReached, .redirectCycleDetected:
            self = .tooManyRedirects
        case .invalidURL, .emptyHost, .emptyScheme:
            self = .invalidURL(url)
        case .remoteConnectionClosed:
            self = .network("the server closed the connection before the answer was complete")
        case .cancelled:
            self = .network("the request was cancelled")
        default:
            self = .network(Self.trimmed(error.shortDescription))
        }
    }

    private init(translating error: IOError) {
        switch error.errnoCode {
        case ECONNREFUSED: self = .network("connection refused")
        case ECONNRESET: self = .network("connection reset by the server")
        case EPIPE: self = .network("the server closed the connection")
        case ETIMEDOUT: self = .timeout
        case EHOSTUNREACH, ENETUNREACH: self = .network("host unreachable")
        default: self = .network(Self.trimmed(error.description))
        }
    }

    /// What went wrong with TLS, in words for a reader. BoringSSL's own text names source files
    /// and lines, so only its reason codes are looked at.
    private static func reason(_ error: NIOSSLError) -> String {
        guard case .handshakeFailed(let failure) = error else {
            return error == .uncleanShutdown ? "the connection was cut without closing TLS" : trimmed(String(describing: error))
        }
        let stack = String(describing: failure)
        if stack.contains("WRONG_VERSION_NUMBER") || stack.contains("HTTP_REQUEST") || stack.contains("PACKET_LENGTH_TOO_LONG") {
            return "the server does not speak TLS at that address"
        }
        if stack.contains("CERTIFICATE_VERIFY_FAILED") { return "the server's certificate is not trusted" }
        if stack.contains("EOF during handshake") { return "the server hung up during the TLS handshake" }
        return "the TLS handshake failed"
    }

    /// What the ``ConnectGuard`` answered when it did not connect.
    private init(translating error: SOCKSError.ConnectionFailed) {
        switch error.reply {
        case .notAllowed: self = .refused("the host resolved to a private or local address when connecting")
        case .refused: self = .network("connection refused")
        case .ttlExpired: self = .timeout
        case .hostUnreachable: self = .network("host unreachable, or its name does not resolve")
        case .networkUnreachable: self = .network("host unreachable")
        default: self = .network("the connection failed (reply \(error.reply.value))")
        }
    }

    private static func trimmed(_ text: String) -> String {
        text.count <= descriptionLimit ? text : String(text.prefix(descriptionLimit)) + "…"
    }
}
