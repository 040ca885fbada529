import ArgumentParser

/// The `kiosk-bench` entry point. It only lists the benchmarks; each is a subcommand in its own file.
///
/// The root is async so that network benchmarks can be async subcommands; synchronous ones
/// (like `parse`) run as they are.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-bench",
        abstract: "Kiosk benchmarks.",
        subcommands: [ParseBenchmark.self, ExtractBenchmark.self, JSONOnceBenchmark.self, HostileBenchmark.self, HostilePagesBenchmark.self, PollBenchmark.self, StoreBenchmark.self, ReaderBenchmark.self, RulesBenchmark.self, SyncBenchmark.self, SSEBenchmark.self, SSEClientsCommand.self]
    )
}
