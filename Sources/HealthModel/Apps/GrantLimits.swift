public import Foundation

/// The limits a user may put on an authorized grant, beyond what HealthKit offers: a temporary
/// grant. Both are optional and independent.
///
/// - `dataWindow` (read grants only): the app sees other sources' samples that start within this
///   long before the moment each query runs — "only my last 30 days". Its own samples stay
///   visible whatever their date, as under a denial.
/// - `expiry`: from this instant the grant reads as denied everywhere, exactly like a revocation.
public struct GrantLimits: Hashable, Sendable {
    public var dataWindow: TimeInterval?
    public var expiry: Date?

    public init(dataWindow: TimeInterval? = nil, expiry: Date? = nil) {
        self.dataWindow = dataWindow
        self.expiry = expiry
    }

    /// No limit: an ordinary, permanent grant.
    public static let none = GrantLimits()

    public var isNone: Bool { dataWindow == nil && expiry == nil }

    /// Whether the grant has lapsed at `now`. The expiry instant itself is already expired, so a
    /// grant "for 2 s" is usable for strictly less than 2 s.
    public func isExpired(at now: Date) -> Bool {
        guard let expiry else { return false }
        return now >= expiry
    }

    /// The earliest start date a windowed read grant covers for a query run at `now`.
    public func windowStart(at now: Date) -> Date? {
        dataWindow.map { now.addingTimeInterval(-$0) }
    }

    /// Why these limits cannot go with `decision` for `access`, or nil when they can. The broker
    /// rejects such a grant rather than storing limits that would mean nothing.
    public func problem(for access: AccessKind, decision: AuthorizationDecision) -> String? {
        if isNone { return nil }
        if decision != .authorized {
            return "a time window or an expiry applies to an authorized grant only"
        }
        if let dataWindow {
            if access != .read { return "a data window applies to read access only" }
            if !(dataWindow > 0 && dataWindow <= Self.longestWindow) {
                return "a data window must be between 1 second and 100 years"
            }
        }
        return nil
    }

    /// 100 years: longer than any window a user means, short enough that `now - window` stays
    /// far inside the store's microsecond range.
    public static let longestWindow: TimeInterval = 100 * 366 * 86_400
}
