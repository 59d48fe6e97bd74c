import NIOCore
import NIOPosix

/// Where the server's blocking work runs: every store call (the store is synchronous behind ``ServiceStore``: SQLite
/// through GRDB, or the PostgreSQL store), reading and writing upload files, hashing. Never on the event loops'
/// threads nor Swift's cooperative pool (one thread per core: two here), so a slow query holds up only the request
/// that made it, and other connections are read, parsed and answered meanwhile.
///
/// How it is bounded: `threads` threads (4 by default: SQLite serialises writes and reads in parallel, and the
/// machine has two cores); work waits its turn in the pool's FIFO queue. With HTTP/1 a connection has at most one
/// request in flight, so the queue holds at most one item per open connection, and the per-address rate limit and
/// the request deadlines bound those. The event streams' store reads (every half second while one is open) queue
/// here too.
struct BlockingPool: Sendable {
    let pool: NIOThreadPool

    /// A started pool of `threads` threads; ``shutdown()`` it when the server stops.
    static func start(threads: Int) -> BlockingPool {
        let pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        return BlockingPool(pool: pool)
    }

    /// NIO's shared pool, for tests that run a piece of the server without one of its own.
    static let shared = BlockingPool(pool: .singleton)

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(work)
    }

    func shutdown() async {
        guard pool !== NIOThreadPool.singleton else { return }
        try? await pool.shutdownGracefully()
    }
}
