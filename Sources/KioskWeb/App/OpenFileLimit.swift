#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every open page holds a connection, and every connection a file descriptor. At the soft
/// limit (1,024 under systemd by default) the Swift runtime's thread pool cannot open what it
/// needs and traps, so the server raises the limit to the hard one at start and accepts no more
/// connections than fit below it.
public enum OpenFileLimit {
    /// Descriptors kept for the process's own files: the database, the image cache, outgoing
    /// fetches (at most 64 checks at once), the runtime.
    public static let reserve = 512

    /// Raises the soft limit on open files to the hard limit.
    /// - Returns: the soft and hard limits afterwards; nil where they cannot be read.
    @discardableResult
    public static func raise() -> (soft: UInt64, hard: UInt64)? {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
        #else
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return nil }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
        #endif
    }

    /// Connections the server may hold open under a soft limit of `soft` descriptors.
    public static func connectionBudget(soft: UInt64) -> Int {
        max(64, Int(min(soft, 1 << 30)) - reserve)
    }
}
