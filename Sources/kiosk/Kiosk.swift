import ArgumentParser

/// The `kiosk` command line: `kiosk [--demo]` serves, `kiosk parse` reads feed files.
@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Kiosk, a self-hosted news and media reader.",
        subcommands: [
            ServeCommand.self, UserCommand.self, MigrateCommand.self, ParseCommand.self, ExtractCommand.self,
            DemoSourcesCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
