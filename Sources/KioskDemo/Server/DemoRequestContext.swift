import Hummingbird
import NIOCore

/// The request context of the demo server: Hummingbird's core storage plus the connection, which
/// the `connectionReset` fault tears down and the control endpoints check is loopback.
struct DemoRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
