import Hummingbird

/// Counts every answer by route pattern, method and status, and times it until its head is
/// ready (an event stream counts when it opens).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: KioskMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let method = request.method.rawValue
        do {
            let response = try await next(request, context)
            metrics.requestServed(
                route: context.endpointPath ?? "unmatched", method: method, status: Int(response.status.code),
                duration: clock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500
            metrics.requestServed(
                route: context.endpointPath ?? "unmatched", method: method, status: status, duration: clock.now - start)
            throw error
        }
    }
}
