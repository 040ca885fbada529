import ServiceLifecycle

/// Waits that end early when the task is cancelled or the server shuts down gracefully, so a
/// slow or never-answering source cannot hold up a graceful shutdown.
enum DemoPause {
    /// Sleeps for `duration`; throws `CancellationError` when cut short.
    static func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await cancelWhenGracefulShutdown {
            try await Task.sleep(for: duration)
        }
    }

    /// Sleeps until cancelled or shut down, then throws `CancellationError`.
    static func forever() async throws {
        while true {
            try await sleep(for: .seconds(3600))
            try Task.checkCancellation()
        }
    }
}
