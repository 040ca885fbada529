import ArgumentParser

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "kiosk-bench", abstract: "Kiosk benchmarks.")
}
