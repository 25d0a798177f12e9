import Testing
@testable import HealthModel

/// The table of types apps may never write (AppWritability), against HealthKit's rules.
@Suite(.timeLimit(.minutes(10))) struct AppWritabilityTests {
    /// Every identifier of the table names a registered type (a misspelt one would silently let
    /// the real type through), except the electrocardiogram type, which has no object here yet.
    @Test func everyListedIdentifierIsARegisteredSampleType() {
        for identifier in AppWritability.systemComputed where identifier != AppWritability.electrocardiogramTypeIdentifier {
            #expect(HKObjectType.type(forIdentifier: identifier) is HKSampleType, "\(identifier)")
        }
    }

    /// HealthKit names every disallowed type in one message; sorted here so it is stable.
    @Test func aShareRefusalNamesEveryDisallowedTypeOnce() {
        let refusal = AppWritability.shareRefusal([
            HKQuantityTypeIdentifier.stepCount.rawValue, HKQuantityTypeIdentifier.walkingHeartRateAverage.rawValue,
            HKCorrelationTypeIdentifier.food.rawValue, HKQuantityTypeIdentifier.walkingHeartRateAverage.rawValue,
            HKCharacteristicTypeIdentifier.dateOfBirth.rawValue, HKObjectType.activitySummaryType().identifier,
            AppWritability.electrocardiogramTypeIdentifier,
        ])
        #expect(refusal?.code == .errorInvalidArgument)
        #expect(refusal?.message == "Authorization to share the following types is disallowed: HKActivitySummaryTypeIdentifier, "
            + "HKCharacteristicTypeIdentifierDateOfBirth, HKCorrelationTypeIdentifierFood, HKDataTypeIdentifierElectrocardiogram, "
            + "HKQuantityTypeIdentifierWalkingHeartRateAverage")
    }

    @Test func writableTypesPass() {
        let writable = [HKQuantityTypeIdentifier.stepCount.rawValue, HKQuantityTypeIdentifier.activeEnergyBurned.rawValue,
                        HKCategoryTypeIdentifier.sleepAnalysis.rawValue, HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier]
        #expect(AppWritability.shareRefusal(writable) == nil)
        #expect(AppWritability.saveRefusal(writable) == nil)
    }

    /// A correlation cannot be requested but can be saved (with grants for what it holds), as in
    /// HealthKit; an Apple-computed type can be neither.
    @Test func aCorrelationIsSavableButNotShareableAndAnAppleComputedTypeIsNeither() {
        let food = HKCorrelationTypeIdentifier.food.rawValue
        #expect(!AppWritability.isShareable(food))
        #expect(AppWritability.isSavableByApps(food))
        let exercise = HKQuantityTypeIdentifier.appleExerciseTime.rawValue
        #expect(!AppWritability.isShareable(exercise))
        #expect(AppWritability.saveRefusal([food, exercise])?.message.hasSuffix(": \(exercise)") == true)
    }

    /// Clinical records are read-only in HealthKit (developer.apple.com/documentation/healthkit/
    /// accessing-health-records: "you can't request authorization to share clinical types"): no
    /// clinical type may be shared or saved by an app, and the refusal names each.
    @Test func everyClinicalTypeIsNeitherShareableNorSavable() {
        let clinical = HKClinicalTypeIdentifier.registered.map(\.rawValue)
        #expect(clinical.count == 9)
        for identifier in clinical {
            #expect(!AppWritability.isShareable(identifier), "\(identifier)")
            #expect(!AppWritability.isSavableByApps(identifier), "\(identifier)")
        }
        let refusal = AppWritability.shareRefusal([HKClinicalTypeIdentifier.allergyRecord.rawValue, HKQuantityTypeIdentifier.stepCount.rawValue])
        #expect(refusal?.message == "Authorization to share the following types is disallowed: HKClinicalTypeIdentifierAllergyRecord")
    }

    /// A share set of every disallowed type gives a bounded message: 20 named, the rest counted.
    @Test func aLongRefusalIsBounded() {
        let all = Array(AppWritability.systemComputed) + HKCharacteristicTypeIdentifier.registered.map(\.rawValue)
            + HKCorrelationTypeIdentifier.registered.map(\.rawValue)
        let refusal = AppWritability.shareRefusal(all + all)
        #expect(refusal?.message.hasSuffix(" and \(Set(all).count - 20) more") == true, "\(String(describing: refusal))")
        #expect((refusal?.message.count ?? 0) < 2_500)
    }
}
