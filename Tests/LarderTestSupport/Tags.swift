import Testing

/// The test tiers. `make unit` runs every test without these tags (seconds, no processes, no data from outside the
/// repository); `make test` runs everything. Tag a test, or its suite, with every tag that applies.
extension Tag {
    /// Starts a process (`larder`, `larder-worker`, the fault server, the local model server) or runs OCR.
    @Tag public static var integration: Self
    /// Reads `../shared/data` (and is skipped, visibly, without it).
    @Tag public static var sharedData: Self
    /// Takes more than a few seconds in a debug build on one core.
    @Tag public static var slow: Self
}
