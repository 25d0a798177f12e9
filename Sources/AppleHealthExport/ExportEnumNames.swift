import HealthModel

/// The Objective-C enum names an export writes for raw values (the reverse of the tables the
/// importer reads, `HKObjCEnumNames`). Several enums share raw values, so each lookup is scoped
/// to the names that belong to one type; a value without a name is written as its number, which
/// the importer (and Apple's readers) accept too.
enum ExportEnumNames {
    /// `HKCategoryValueSleepAnalysisAsleepCore` for sleep analysis 3. Where a raw value has two
    /// names (a deprecated alias such as `…Asleep` beside `…AsleepUnspecified`), the longer,
    /// current one is written.
    static func categoryValue(_ raw: Int, of type: String) -> String {
        let stem = type.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
        let names = categoryNames[stem] ?? [:]
        return names[raw] ?? "\(raw)"
    }

    static func workoutActivityType(_ raw: UInt) -> String? {
        activityNames[raw]
    }

    static func workoutEventType(_ raw: Int) -> String? {
        eventNames[raw]
    }

    /// `HKBiologicalSexFemale` for biological sex 2; `HKBiologicalSexNotSet` when unset.
    static func characteristicValue(_ raw: Int?, of type: String) -> String {
        let stem = "HK" + type.replacingOccurrences(of: "HKCharacteristicTypeIdentifier", with: "")
        guard let raw else { return stem + "NotSet" }
        return HKObjCEnumNames.characteristicValues.filter { $0.key.hasPrefix(stem) && $0.value == raw }
            .map(\.key).reduce(nil) { best, name in best.map { preferred($0, name) } ?? name } ?? "\(raw)"
    }

    /// Of two names for one value, the longer (the current one beside a deprecated alias), and
    /// of two as long the first in order, so every export spells a value the same way.
    private static func preferred(_ first: String, _ second: String) -> String {
        first.count != second.count ? (first.count > second.count ? first : second) : min(first, second)
    }

    /// Category type stem (`SleepAnalysis`) → raw value → name; built once.
    private static let categoryNames: [String: [Int: String]] = {
        let stems = HKObjectType.allTypes.compactMap { type -> String? in
            guard type is HKCategoryType else { return nil }
            return type.identifier.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
        }
        var table: [String: [Int: String]] = [:]
        for stem in stems {
            let prefix = "HKCategoryValue" + stem
            for (name, raw) in HKObjCEnumNames.categoryValues where name.hasPrefix(prefix) {
                // A longer stem owns its names: "AppleStandHour" must not take "AppleStandHourX"'s of a type "AppleStandHourX".
                if stems.contains(where: { $0.count > stem.count && $0.hasPrefix(stem) && name.hasPrefix("HKCategoryValue" + $0) }) { continue }
                table[stem, default: [:]][raw] = table[stem]?[raw].map { preferred($0, name) } ?? name
            }
        }
        return table
    }()

    private static let activityNames: [UInt: String] = Dictionary(
        HKObjCEnumNames.workoutActivityTypes.map { ($0.value, $0.key) }, uniquingKeysWith: preferred)

    private static let eventNames: [Int: String] = Dictionary(
        HKObjCEnumNames.workoutEventTypes.map { ($0.value, $0.key) }, uniquingKeysWith: preferred)
}
