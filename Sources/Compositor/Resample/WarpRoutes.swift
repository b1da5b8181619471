import Synchronization

/// How many perspective warps took each route (`PerspectiveWarp.Route`): a renderer counts them when asked, for
/// `--verbose`. Safe to share between the threads drawing frames.
public final class WarpRoutes: Sendable {
    private let counts = Mutex<[PerspectiveWarp.Route: Int]>([:])

    public init() {}

    public func record(_ route: PerspectiveWarp.Route) {
        counts.withLock { $0[route, default: 0] += 1 }
    }

    /// How many warps took `route`.
    public func count(_ route: PerspectiveWarp.Route) -> Int {
        counts.withLock { $0[route, default: 0] }
    }

    /// "12 by two passes, 3 by mip levels", routes in `Route.allCases` order; empty when nothing was warped.
    public var summary: String {
        let counts = counts.withLock { $0 }
        return PerspectiveWarp.Route.allCases.compactMap { route in
            counts[route].map { "\($0) by \(route.rawValue)" }
        }.joined(separator: ", ")
    }
}
