extension HKError {
    /// The refusal of a write (save, deletion) of `type` for want of share permission (DESIGN.md
    /// §7.5), or nil when `decision` allows it. One text for every place that decides it — the
    /// broker's check before a call and the store's check inside a deletion's transaction of the
    /// types an own correlation actually holds — so an app cannot tell them apart.
    public static func shareRefusal(_ type: String, _ decision: AuthorizationDecision) -> HKError? {
        switch decision {
        case .authorized:
            nil
        case .notDetermined:
            HKError(.errorAuthorizationNotDetermined,
                    "authorization to share \(type) has not been requested; call requestAuthorization(toShare:read:) first")
        case .denied:
            HKError(.errorAuthorizationDenied, "authorization to share \(type) is denied")
        }
    }
}
