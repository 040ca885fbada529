import ArgumentParser

@main
struct Kiosk: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "kiosk", abstract: "Kiosk, a self-hosted news and media reader.")
}
