import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kiosk's data is its user's alone: what they follow and read, the image proxy's key (which
/// signs what the proxy fetches) and the image cache. So its folders are created 0700 and its
/// files 0600 (the web app's and the image cache's alike), with the mode given to `mkdir` and
/// `open` themselves: Foundation creates with the umask's mode (readable by all by default) and
/// can only change it afterwards, leaving a moment in which another user can open the file.
public enum PrivateFiles {
    public struct Failure: LocalizedError {
        public var errorDescription: String?

        init(_ what: String, _ path: String, errno code: Int32 = errno) {
            errorDescription = "cannot \(what) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Creates `directory` and any missing folders above it, each 0700; folders that exist are
    /// left as their owner made them.
    public static func createDirectory(_ directory: URL) throws {
        var missing: [String] = []
        var path = directory.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            missing.append(path)
            let parent = (path as NSString).deletingLastPathComponent
            guard parent != path, !parent.isEmpty else { break }
            path = parent
        }
        for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw Failure("create the folder", folder)
        }
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure("use the folder", directory.path, errno: ENOTDIR)
        }
    }

    /// Creates `file` empty and 0600 unless it exists.
    /// - Returns: whether it was created now.
    @discardableResult
    public static func createEmptyFile(_ file: URL) throws -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw Failure("create", file.path)
        }
        close(descriptor)
        return true
    }

    /// Replaces `file` with `bytes` at once (a reader sees the old file or the new, never part),
    /// through a 0600 file beside it.
    public static func writeAtomically(_ bytes: some ContiguousBytes, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure("create", temporary.path) }
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let start = buffer.baseAddress {
                let count = write(descriptor, start + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let code = errno
        close(descriptor)
        guard written, rename(temporary.path, file.path) == 0 else {
            let failure = Failure("write", file.path, errno: written ? errno : code)
            unlink(temporary.path)
            throw failure
        }
    }
}
