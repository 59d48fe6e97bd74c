import LarderSupport

/// `Locked` lives in `LarderSupport` (no dependencies) so that every target can share it; this name keeps it in
/// scope for the code that imports `LarderCore`.
public typealias Locked = LarderSupport.Locked
