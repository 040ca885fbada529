import Foundation

/// A command-line path that cannot be checked.
public struct PathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the path.
    public let description: String
}

/// Finds the Swift files to check.
public enum SourceFiles {
    /// Every `.swift` file under `paths`, sorted and without duplicates.
    ///
    /// Directories are walked recursively, skipping `.build*` directories (SwiftPM build
    /// output holds checked-out dependencies) and not following symbolic links to
    /// directories (they could loop). A file named directly must end in `.swift`.
    ///
    /// - Throws: ``PathError`` when a path does not exist or is not a Swift file.
    public static func collect(under paths: [String], fileManager: FileManager = .default) throws -> [String] {
        var files: [String] = []
        for rawPath in paths {
            let path = trimmingTrailingSlashes(rawPath)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PathError(description: "no such file or directory: \(rawPath)")
            }
            if isDirectory.boolValue {
                try walk(path, fileManager: fileManager, into: &files)
            } else if path.hasSuffix(".swift") {
                files.append(path)
            } else {
                throw PathError(description: "not a Swift file: \(rawPath)")
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }.sorted()
    }

    private static func walk(_ directory: String, fileManager: FileManager, into files: inout [String]) throws {
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw PathError(description: "cannot list \(directory): \(error.localizedDescription)")
        }
        for name in names {
            let path = directory == "/" ? "/\(name)" : "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                guard !name.hasPrefix(".build"), !isSymbolicLink(path, fileManager: fileManager) else { continue }
                try walk(path, fileManager: fileManager, into: &files)
            } else if name.hasSuffix(".swift") {
                files.append(path)
            }
        }
    }

    private static func isSymbolicLink(_ path: String, fileManager: FileManager) -> Bool {
        let type = (try? fileManager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeSymbolicLink
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") {
            trimmed = trimmed.dropLast()
        }
        return String(trimmed)
    }
}
