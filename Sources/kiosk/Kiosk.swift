import ArgumentParser

/// The `kiosk` command line: subcommands for each thing Kiosk does.
@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Kiosk, a self-hosted news and media reader.",
        subcommands: [ParseCommand.self]
    )
}
