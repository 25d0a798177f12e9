import CSandbox

/// What the running kernel offers, for tests that need a feature to mean anything.
enum KernelFeatures {
    static let landlockABI = Int(ohk_landlock_abi())

    static var hasLandlock: Bool { landlockABI >= 1 }

    /// ABI 6 (Linux 6.12) scopes abstract Unix sockets and signals to the sandbox.
    static var hasLandlockScopes: Bool { landlockABI >= 6 }
}
