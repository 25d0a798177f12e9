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
