public import Foundation

/// `HKError.userInfo`, kept so the error stays `Sendable` and `Hashable` although Apple's
/// dictionary holds `Any`.
///
/// Sendable: `@unchecked` for the reason Foundation's `NSError` (which carries the same
/// dictionary) is: it is never mutated after init, so sharing it across threads only reads it.
/// A caller who puts a mutable reference object in it shares that object, as with NSError.
///
/// Equality: `Any` has none, so each value compares by its own `Hashable` equality when it has
/// one (strings, numbers, URLs, NSObjects — every value HealthKit's and Foundation's keys use).
/// A value with no equality at all (a closure, a plain struct) cannot be compared; two such
/// values under the same key count as equal, so an error always equals itself (`==` stays an
/// equivalence, as `Hashable` requires), and a comparable value never equals an incomparable one.
/// The hash uses the keys and the comparable values only, so equal errors hash alike.
final class ErrorUserInfo: Hashable, @unchecked Sendable {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    static func == (lhs: ErrorUserInfo, rhs: ErrorUserInfo) -> Bool {
        guard lhs.values.count == rhs.values.count else { return false }
        return lhs.values.allSatisfy { key, value in
            guard let other = rhs.values[key] else { return false }
            return comparable(value) == comparable(other)
        }
    }

    func hash(into hasher: inout Hasher) {
        // Dictionary order is not stable between equal dictionaries: combine in key order.
        for key in values.keys.sorted() {
            hasher.combine(key)
            hasher.combine(values[key].flatMap(Self.comparable))
        }
    }

    /// The value as something with equality, or nil when it has none.
    private static func comparable(_ value: Any) -> AnyHashable? {
        value as? AnyHashable
    }
}
