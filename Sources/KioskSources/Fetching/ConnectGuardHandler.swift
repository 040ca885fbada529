import NIOCore
import NIOPosix
import NIOSOCKS

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection of ``ConnectGuard``, after `SOCKSServerHandshakeHandler` parsed its
/// messages: no authentication, CONNECT only, then the ``ConnectRules`` verdict. On success it
/// splices the client to the connected socket (``GlueHandler``) and leaves the pipeline.
final class ConnectGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ClientMessage
    typealias OutboundOut = ServerMessage

    private enum State {
        case waitingForGreeting, waitingForRequest, connecting, spliced, closed
    }

    private var state = State.waitingForGreeting
    private let rules: ConnectRules

    init(rules: ConnectRules) {
        self.rules = rules
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // What the handshake handler still holds when it leaves the pipeline comes as bytes:
        // once spliced it goes on to the glue; once closed (it leaves then too) it is dropped.
        guard state != .spliced else { return context.fireChannelRead(data) }
        guard state != .closed else { return }
        switch (state, unwrapInboundIn(data)) {
        case (.waitingForGreeting, .greeting(let greeting)):
            guard greeting.methods.contains(.noneRequired) else {
                state = .closed
                let answer = ServerMessage.selectedAuthenticationMethod(SelectedAuthenticationMethod(method: .noneAcceptable))
                return closeAfter(answer, context: context)
            }
            state = .waitingForRequest
            let answer = ServerMessage.selectedAuthenticationMethod(SelectedAuthenticationMethod(method: .noneRequired))
            context.writeAndFlush(wrapOutboundOut(answer), promise: nil)
        case (.waitingForRequest, .request(let request)):
            guard request.command == .connect else { return refuse(.commandUnsupported, context: context) }
            state = .connecting
            // Nothing more is read from the client until its connection is spliced (or refused).
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
            let rules = self.rules
            let target = request.addressType
            context.eventLoop.makeFutureWithTask { await rules.verdict(for: target) }
                .assumeIsolated()
                .whenSuccess { verdict in
                    switch verdict {
                    case .refuse(let reply): self.refuse(reply, context: context)
                    case .connect(let host, let addresses, let checked):
                        self.connect(host: host, addresses: addresses, checked: checked, context: context)
                    }
                }
        default:
            state = .closed
            context.close(promise: nil)
        }
    }

    /// Connects to one of `addresses` (Happy Eyeballs over them alone), then splices it.
    private func connect(host: String, addresses: [SocketAddress], checked: Bool, context: ChannelHandlerContext) {
        guard state == .connecting else { return }  // the client left meanwhile
        guard let port = addresses.first?.port else { return refuse(.hostUnreachable, context: context) }
        // The same event loop as the client's connection: the glue touches both pipelines.
        ClientBootstrap(group: context.eventLoop)
            .resolver(VettedAddresses(addresses: addresses, eventLoop: context.eventLoop))
            .connectTimeout(rules.connectTimeout)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(host: host, port: port)
            .hop(to: context.eventLoop)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let peer): self.splice(peer, checked: checked, context: context)
                case .failure(let error): self.refuse(ConnectRules.reply(for: error), context: context)
                }
            }
    }

    private func splice(_ peer: any Channel, checked: Bool, context: ChannelHandlerContext) {
        guard state == .connecting, context.channel.isActive else {
            peer.close(promise: nil)
            return
        }
        // Belt and braces: the address the socket is connected to, whatever was resolved.
        if checked {
            guard let remote = peer.remoteAddress, rules.isAllowed(remote) else {
                peer.close(promise: nil)
                return refuse(.notAllowed, context: context)
            }
        }
        let (client, server) = GlueHandler.matchedPair()
        do {
            try peer.pipeline.syncOperations.addHandler(server)
            let bound = peer.localAddress ?? Self.unspecified
            context.writeAndFlush(
                wrapOutboundOut(.response(SOCKSResponse(reply: .succeeded, boundAddress: .address(bound)))), promise: nil)
            state = .spliced
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(client)
            let handshake = try pipeline.handler(type: SOCKSServerHandshakeHandler.self)
            // Removing the handshake handler hands on whatever the client sent early.
            pipeline.removeHandler(handshake, promise: nil)
            peer.flush()
            try context.channel.syncOptions?.setOption(.autoRead, value: true)
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            peer.close(promise: nil)
            state = .closed
            context.close(promise: nil)
        }
    }

    private func refuse(_ reply: SOCKSServerReply, context: ChannelHandlerContext) {
        guard state != .closed else { return }
        state = .closed
        let bound = context.channel.localAddress ?? Self.unspecified
        closeAfter(.response(SOCKSResponse(reply: reply, boundAddress: .address(bound))), context: context)
    }

    /// Sends `message`, then closes (once it is written: closing at once could drop it).
    private func closeAfter(_ message: ServerMessage, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(message)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Idle for too long, or the client stopped sending before the splice: nothing to wait for.
        if event is IdleStateHandler.IdleStateEvent || (event as? ChannelEvent) == .inputClosed {
            state = .closed
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        state = .closed
        context.close(promise: nil)
    }

    /// 0.0.0.0:0, the bound address when there is none to report.
    private static let unspecified = SocketAddress(sockaddr_in(), host: "")
}
