/// The scrypt parameters a `store.keys` may name. The file is read before anything is
/// authenticated (the parameters are needed to derive the key that would authenticate it), so
/// whoever can write the store folder chooses them: unbounded, N or r would make every unlock
/// allocate as much as they say, and p would make it spin for as long. Bounds at eight times the
/// defaults' work and memory leave room to raise the defaults later; a file past them is refused
/// before scrypt runs, naming the file, the value and its bound.
extension PasscodeKDF {
    /// N must be a power of two (scrypt's own rule) from 2 to this.
    static let maximumN: UInt64 = 1 << 20
    static let maximumR: UInt32 = 32
    static let maximumP: UInt32 = 16
    /// scrypt's memory, 128·N·r bytes: 1 GiB, eight times the defaults' 128 MiB.
    static let maximumMemoryBytes: UInt64 = 1 << 30
    /// scrypt's work, N·r·p block mixes: eight times the defaults'.
    static let maximumWork: UInt64 = 8 * defaultN * UInt64(defaultR) * UInt64(defaultP)
    /// Salts this code writes have 16 bytes; an empty or a huge one is not ours.
    static let saltBytes = 16...64

    /// Throws `keyDerivationOutOfBounds` naming `path` for the first parameter past its bound.
    /// Each check uses only values already known to be in range, so no product overflows.
    func checkBounds(path: String) throws(StoreOpenError) {
        func refuse(_ parameter: String, _ value: UInt64, _ bound: String) -> StoreOpenError {
            .keyDerivationOutOfBounds(path: path, parameter: parameter, value: value, bound: bound)
        }
        guard n >= 2, n <= Self.maximumN, n & (n - 1) == 0 else {
            throw refuse("N", n, "a power of two from 2 to \(Self.maximumN)")
        }
        guard r >= 1, r <= Self.maximumR else { throw refuse("r", UInt64(r), "1 to \(Self.maximumR)") }
        guard p >= 1, p <= Self.maximumP else { throw refuse("p", UInt64(p), "1 to \(Self.maximumP)") }
        let memory = 128 * n * UInt64(r)
        guard memory <= Self.maximumMemoryBytes else {
            throw refuse("memory (128·N·r bytes)", memory, "at most \(Self.maximumMemoryBytes) bytes")
        }
        let work = n * UInt64(r) * UInt64(p)
        guard work <= Self.maximumWork else { throw refuse("work (N·r·p)", work, "at most \(Self.maximumWork)") }
        guard Self.saltBytes.contains(salt.count) else {
            throw refuse("salt length", UInt64(salt.count), "\(Self.saltBytes.lowerBound) to \(Self.saltBytes.upperBound) bytes")
        }
    }
}
