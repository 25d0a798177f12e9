import Synchronization

/// Parsed units by the text they were parsed from, so a unit string is parsed once per process
/// rather than once per sample. Saving a batch used to parse the sample's unit, and the value
/// range's unit twice, for every sample, in the SDK and again in healthd.
///
/// Unit strings come from untrusted apps, so the cache is bounded: it holds only units that
/// parsed (an app sending endless invalid strings adds nothing), only short strings, and starts
/// over when full rather than grow. `HKUnit` is immutable, so one instance is safely shared.
enum UnitCache {
    /// Far more than the distinct unit strings an app uses (HealthKit's units and their
    /// prefixed and compound forms in practice number a few dozen).
    static let capacity = 512
    /// Longer strings are parsed every time (none of HealthKit's own units come close).
    static let maximumKeyLength = 64

    private static let units = Mutex<[String: HKUnit]>([:])

    /// The unit `text` spells, parsed on its first use.
    static func unit(_ text: String) throws(HKError) -> HKUnit {
        if let cached = units.withLock({ $0[text] }) { return cached }
        let parsed = HKUnit(try UnitStringParser.parse(text))
        if text.utf8.count <= maximumKeyLength {
            units.withLock { units in
                if units.count >= capacity { units.removeAll(keepingCapacity: true) }
                units[text] = parsed
            }
        }
        return parsed
    }

    /// How many units are cached (tests check the bound).
    static var count: Int { units.withLock { $0.count } }

    /// Whether `text` is cached. Tests ask about their own strings: other tests parse units in
    /// parallel, so the cache's total count says nothing about one test's strings.
    static func contains(_ text: String) -> Bool { units.withLock { $0[text] != nil } }
}
