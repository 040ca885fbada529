import Hummingbird

/// Runs the router (every middleware and the route) in a child task of the connection's, so the
/// deep async stack a request builds is freed once its response is ready.
///
/// Hummingbird runs `respond` and then writes the response body in the connection's own task,
/// and a task's allocator keeps the memory its deepest call chain grew to until the task ends:
/// each middleware's frame holds a copy of the request and of `KioskRequestContext`. An open
/// event stream writes its body for as long as the page is open, so it kept that peak, ~22 KiB
/// more per stream after eight middlewares arrived (bisected in docs/PERFORMANCE.md). In a child
/// task the chain's frames go with the task; the stream runs on a shallow stack.
struct ChildTaskResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: Sendable {
    typealias Context = Inner.Context
    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        try await withThrowingTaskGroup(of: Response.self) { group in
            group.addTask { try await inner.respond(to: request, context: context) }
            guard let response = try await group.next() else { throw CancellationError() }
            return response
        }
    }
}
