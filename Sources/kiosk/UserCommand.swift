import ArgumentParser
import Foundation
import KioskAccounts
import KioskSettings
import Logging

/// `kiosk user add|passwd|remove|list`: accounts, managed on the server's own machine. Each
/// takes the flags serving takes (`--data-directory`, `--config`, `--demo`), so it finds the
/// same database, and works while Kiosk runs (SQLite in WAL mode; a running Kiosk sees a new
/// account within a second, and a removed one's sessions end at once).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and remove accounts, and change passwords.",
        subcommands: [Add.self, Passwd.self, Remove.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an account.")
        @OptionGroup var location: DataLocation
        @Argument(help: "The account's name (letters, digits, . _ - @).") var name: String
        @Flag(help: "Read the password from standard input (its first line).") var passwordStdin = false
        @Flag(help: "The account may manage the server.") var admin = false

        func run() async throws {
            try await UserCommand.running {
                let password = try UserCommand.password(fromStdin: passwordStdin)
                try await UserCommand.withAccounts(location) { accounts in
                    let first = try await !accounts.exist()
                    let account = try await accounts.add(name: name, password: password, isAdmin: admin)
                    print("Added \(account.name)\(admin ? " (admin)" : "").")
                    if first && account.id == .owner {
                        print("This first account has the local owner's subscriptions and reading state. Kiosk now asks everyone to sign in.")
                    }
                }
            }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an account's password (ends its web sign-ins).")
        @OptionGroup var location: DataLocation
        @Argument var name: String
        @Flag(help: "Read the password from standard input (its first line).") var passwordStdin = false

        func run() async throws {
            try await UserCommand.running {
                let password = try UserCommand.password(fromStdin: passwordStdin)
                try await UserCommand.withAccounts(location) { try await $0.changePassword(name: name, to: password) }
                print("Password changed for \(name).")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an account with its subscriptions, reading state, app passwords and sessions.")
        @OptionGroup var location: DataLocation
        @Argument var name: String

        func run() async throws {
            try await UserCommand.running {
                let forgotten = try await UserCommand.withAccounts(location) { try await $0.remove(name: name) }
                print("Removed \(name)\(forgotten.isEmpty ? "" : "; \(forgotten.count) feeds nobody else follows went too").")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts.")
        @OptionGroup var location: DataLocation

        func run() async throws {
            try await UserCommand.running {
                let accounts = try await UserCommand.withAccounts(location) { try await $0.list() }
                if accounts.isEmpty { print("No accounts: Kiosk serves the local owner, on loopback only.") }
                for account in accounts { print(account.name + (account.isAdmin ? "\tadmin" : "")) }
            }
        }
    }

    /// Runs `body` with the accounts where serving with the same flags (and environment) keeps
    /// them: the store the settings name, opened as serving opens it.
    static func withAccounts<T: Sendable>(_ location: DataLocation, _ body: (Accounts) async throws -> T) async throws -> T {
        // Created private (0700 folders, 0600 file), as serving creates them: this may run first.
        umask(0o077)
        let opened = try await location.settings().openStore(logger: quietLogger)
        defer { opened.close() }
        return try await body(Accounts(store: opened.store, hasher: .bcrypt()))
    }

    /// Commands other than serving say only what went wrong.
    static var quietLogger: Logger {
        var logger = Logger(label: "kiosk")
        logger.logLevel = .error
        return logger
    }

    /// The first line of standard input, or a prompt's answer (without echo) on a terminal.
    static func password(fromStdin: Bool) throws -> String {
        if fromStdin || isatty(STDIN_FILENO) == 0 {
            guard let line = readLine(strippingNewline: true) else { throw ValidationError("No password on standard input.") }
            return line
        }
        guard let first = getpass("Password: ").map({ String(cString: $0) }),
            let second = getpass("Again: ").map({ String(cString: $0) })
        else { throw ValidationError("No password given.") }
        guard first == second else { throw ValidationError("The two passwords differ.") }
        return first
    }

    /// Runs `body`, saying any failure in one line on stderr with a failing status.
    static func running(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            throw error
        } catch {
            FileHandle.standardError.write(Data("kiosk: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
