import Foundation
import HealthKit

/// `e2e-client characteristics`: reads every characteristic through HealthKit's synchronous
/// calls and prints `characteristic NAME VALUE` lines (enum raw values; the date of birth as
/// YYYY-MM-DD, or `none` when its components are empty), then `ok 6`.
func readCharacteristics(_ store: HKHealthStore) throws {
    let birth = try store.dateOfBirthComponents()
    if let year = birth.year, let month = birth.month, let day = birth.day {
        print("characteristic dateOfBirth \(String(format: "%04d-%02d-%02d", year, month, day))")
    } else {
        print("characteristic dateOfBirth none")
    }
    print("characteristic biologicalSex \(try store.biologicalSex().biologicalSex.rawValue)")
    print("characteristic bloodType \(try store.bloodType().bloodType.rawValue)")
    print("characteristic fitzpatrickSkinType \(try store.fitzpatrickSkinType().skinType.rawValue)")
    print("characteristic wheelchairUse \(try store.wheelchairUse().wheelchairUse.rawValue)")
    print("characteristic activityMoveMode \(try store.activityMoveMode().activityMoveMode.rawValue)")
    print("ok 6")
}

/// `e2e-client preferred-units TYPE…`: `preferredUnits(for:)` with this process's locale;
/// prints `locale metric|us|uk` (the system the SDK sends), `unit TYPE UNIT` lines sorted by
/// type, then `ok COUNT`.
func preferredUnits(_ store: HKHealthStore, _ arguments: [String]) async throws {
    let system = Locale.current.measurementSystem
    print("locale \(system == .us ? "us" : system == .uk ? "uk" : "metric")")
    let types = Set(arguments.dropFirst().compactMap { type($0) as? HKQuantityType })
    let units = try await store.preferredUnits(for: types)
    for (type, unit) in units.sorted(by: { $0.key.identifier < $1.key.identifier }) {
        print("unit \(type.identifier) \(unit.unitString)")
    }
    print("ok \(units.count)")
}
