import Foundation
import HealthModel
import HealthWire

/// Correlations, characteristics, preferred units, workouts, routes, and the calls that name
/// objects to change them (associate, delete): another app's object must answer exactly like
/// one that does not exist — here, in the control world, the hidden app's UUIDs name nothing.
extension ProbeCatalog {
    /// A UUID no world ever assigns: the "fresh" object the hidden ones must look like.
    static let freshUUID = UUID(uuidString: "00000000-0000-7000-8000-000000000001")!
    static let bloodPressure = ProbeData.bloodPressure

    static let correlations: [ProbeCall] = [
        .stream("correlations: blood pressure", .queryCorrelations) { _ in CorrelationQuerySpec(typeIdentifier: bloodPressure).wireBytes() },
        .stream("correlations: blood pressure, systolic above 125 mmHg", .queryCorrelations) { _ in
            CorrelationQuerySpec(typeIdentifier: bloodPressure,
                                 objectPredicates: [ProbeData.systolic: .quantity(.greaterThan, value: 125, unit: "mmHg")]).wireBytes()
        },
        .stream("correlations: blood pressure, hidden UUID", .queryCorrelations) {
            CorrelationQuerySpec(typeIdentifier: bloodPressure, predicate: .uuids([$0.hidden.correlation])).wireBytes()
        },
        .stream("correlations: food, which nobody saved", .queryCorrelations) { _ in
            CorrelationQuerySpec(typeIdentifier: HKCorrelationTypeIdentifier.food.rawValue).wireBytes()
        },
        .stream("correlations: not a correlation type", .queryCorrelations) { _ in CorrelationQuerySpec(typeIdentifier: heartRate).wireBytes() },
        .query("sample query of blood pressure") { _ in SampleQuerySpec(typeIdentifier: bloodPressure) },
        .query("sample query of systolic pressure") { _ in SampleQuerySpec(typeIdentifier: ProbeData.systolic) },
        .query("systolic pressure in no correlation") { _ in SampleQuerySpec(typeIdentifier: ProbeData.systolic, predicate: .noCorrelation) },
        .stream("anchored systolic pressure in no correlation", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: ProbeData.systolic, predicate: .noCorrelation).wireBytes()
        },
        // The change feed and source queries of a correlation type: the contained types' rule,
        // as in the correlation queries above (`AuthorizationEngine.readScope`).
        .stream("anchored blood pressure, from the start", .queryAnchored) { _ in AnchoredQuerySpec(typeIdentifier: bloodPressure).wireBytes() },
        .stream("anchored blood pressure, hidden UUID", .queryAnchored) {
            AnchoredQuerySpec(typeIdentifier: bloodPressure, predicate: .uuids([$0.hidden.correlation])).wireBytes()
        },
        .unary("sources of blood pressure", .querySources) { _ in TypePredicateSpec(typeIdentifier: bloodPressure).wireBytes() },
    ]

    /// Characteristics: set by the user in the hidden world, never in the control world.
    static let characteristics: [ProbeCall] = [
        .unary("characteristic: blood type", .getCharacteristic) { _ in TypeIdentifierMessage(ProbeData.bloodType).wireBytes() },
        .unary("characteristic: date of birth", .getCharacteristic) { _ in TypeIdentifierMessage(ProbeData.dateOfBirth).wireBytes() },
        .unary("characteristic: biological sex, unset everywhere", .getCharacteristic) { _ in
            TypeIdentifierMessage(HKCharacteristicTypeIdentifier.biologicalSex.rawValue).wireBytes()
        },
        .unary("characteristic: not a characteristic type", .getCharacteristic) { _ in TypeIdentifierMessage(heartRate).wireBytes() },
        .unary("preferred units, metric", .preferredUnits) { _ in
            PreferredUnitsRequest(typeIdentifiers: [heartRate, steps, ProbeData.systolic], measurementSystem: "metric").wireBytes()
        },
        .unary("preferred units, a type never asked about", .preferredUnits) { _ in
            PreferredUnitsRequest(typeIdentifiers: [HKQuantityTypeIdentifier.bodyMass.rawValue], measurementSystem: "us").wireBytes()
        },
    ]

    static let workouts: [ProbeCall] = [
        .query("workouts") { _ in SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier) },
        .query("workouts: running only (the hidden app's activity)") { _ in
            SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .workoutActivityType(HKWorkoutActivityType.running.rawValue))
        },
        // Issue 15's workout predicates: each would select the hidden app's workout (every workout
        // has a duration; the statistic and activity tests name what a builder records).
        .query("workouts: at least 0 s long") { _ in
            SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .workoutValue(.total(.duration, .greaterThanOrEqualTo, 0)))
        },
        .query("workouts: not burning over 1e9 kcal") { _ in
            SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .not(.workoutValue(.total(.energyBurned, .greaterThan, 1e9))))
        },
        .query("workouts: a running activity or any heart-rate average") { _ in
            SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .or([
                .workoutValue(.activity(.activityType(HKWorkoutActivityType.running.rawValue))),
                .workoutValue(.statistic(WorkoutStatisticTest(quantityType: heartRate, statistic: .average, op: .greaterThanOrEqualTo, value: 0))),
            ]))
        },
        .stream("anchored workouts at least 0 s long, from the start", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .workoutValue(.total(.duration, .greaterThanOrEqualTo, 0))).wireBytes()
        },
        .query("heart rate in the hidden workout") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .workout($0.hidden.workout)) },
        .query("heart rate in its own workout") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .workout($0.ownWorkout)) },
        .query("heart rate in a workout that does not exist") { _ in SampleQuerySpec(typeIdentifier: heartRate, predicate: .workout(freshUUID)) },
        .query("workout routes") { _ in SampleQuerySpec(typeIdentifier: HKWorkoutRouteTypeIdentifier) },
        .stream("route data of the hidden route", .queryRouteData) { RouteDataQuery(routeUUID: $0.hidden.route).wireBytes() },
        .stream("route data of a route that does not exist", .queryRouteData) { _ in RouteDataQuery(routeUUID: freshUUID).wireBytes() },
        .stream("anchored workouts, from the start", .queryAnchored) { _ in AnchoredQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier).wireBytes() },
    ]

    /// Calls naming objects to change them; each hidden-naming call has a twin naming `freshUUID`.
    static let changes: [ProbeCall] = [
        .unary("associate its sample with the hidden workout", .addSamplesToWorkout) {
            WorkoutAssociation(workoutUUID: $0.hidden.workout, sampleUUIDs: [$0.ownUUIDs[0]]).wireBytes()
        },
        .unary("associate its sample with a workout that does not exist", .addSamplesToWorkout) {
            WorkoutAssociation(workoutUUID: freshUUID, sampleUUIDs: [$0.ownUUIDs[0]]).wireBytes()
        },
        .unary("associate a hidden sample with its workout", .addSamplesToWorkout) {
            WorkoutAssociation(workoutUUID: $0.ownWorkout, sampleUUIDs: [$0.hidden.samples[3]]).wireBytes()
        },
        .unary("associate a sample that does not exist with its workout", .addSamplesToWorkout) {
            WorkoutAssociation(workoutUUID: $0.ownWorkout, sampleUUIDs: [freshUUID]).wireBytes()
        },
        .unary("delete a hidden sample", .deleteObjects) {
            ObjectDeletion([ObjectReference(typeIdentifier: heartRate, uuid: $0.hidden.samples[2])]).wireBytes()
        },
        .unary("delete a sample that does not exist", .deleteObjects) { _ in
            ObjectDeletion([ObjectReference(typeIdentifier: heartRate, uuid: freshUUID)]).wireBytes()
        },
        .unary("delete the hidden workout", .deleteObjects) {
            ObjectDeletion([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: $0.hidden.workout)]).wireBytes()
        },
        .unary("delete a workout that does not exist", .deleteObjects) { _ in
            ObjectDeletion([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: freshUUID)]).wireBytes()
        },
        .unary("delete matching hidden UUIDs", .deleteMatching) {
            MatchingDeletion(typeIdentifier: heartRate, predicate: .uuids(Set($0.hidden.samples))).wireBytes()
        },
        .unary("delete matching a UUID that does not exist", .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: heartRate, predicate: .uuids([freshUUID])).wireBytes()
        },
        // A correlation is deleted with its samples, under its contained types' share grants
        // (checked in the transaction, on the app's own row only): the hidden app's reading must
        // answer as one that never existed, whatever the prober may share or read.
        .unary("delete the hidden correlation", .deleteObjects) {
            ObjectDeletion([ObjectReference(typeIdentifier: bloodPressure, uuid: $0.hidden.correlation)]).wireBytes()
        },
        .unary("delete a correlation that does not exist", .deleteObjects) { _ in
            ObjectDeletion([ObjectReference(typeIdentifier: bloodPressure, uuid: freshUUID)]).wireBytes()
        },
        .unary("delete matching the hidden correlation's UUID", .deleteMatching) {
            MatchingDeletion(typeIdentifier: bloodPressure, predicate: .uuids([$0.hidden.correlation])).wireBytes()
        },
        .unary("delete matching a correlation UUID that does not exist", .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: bloodPressure, predicate: .uuids([freshUUID])).wireBytes()
        },
        .unary("delete matching steps at hidden samples' dates", .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: steps, predicate: hiddenStepsOnly).wireBytes()
        },
        .query("heart rate after the attempts") { _ in SampleQuerySpec(typeIdentifier: heartRate) },
    ]

    /// Calls that must get the same answer within one world, in every state: one naming the
    /// hidden app's object to change it, one naming nothing.
    static let changeTwins = [
        ("associate its sample with the hidden workout", "associate its sample with a workout that does not exist"),
        ("associate a hidden sample with its workout", "associate a sample that does not exist with its workout"),
        ("delete a hidden sample", "delete a sample that does not exist"),
        ("delete the hidden workout", "delete a workout that does not exist"),
        ("delete matching hidden UUIDs", "delete matching a UUID that does not exist"),
        ("delete the hidden prescription by UUID", "delete a prescription that does not exist"),
        ("delete the hidden correlation", "delete a correlation that does not exist"),
        ("delete matching the hidden correlation's UUID", "delete matching a correlation UUID that does not exist"),
        ("effort: relate a hidden score to its workout", "effort: relate a score that does not exist to its workout"),
    ] + attachmentChangeTwins

    /// The same for reads through a hidden object, in every state but `authorized`.
    static let readTwins = [
        ("heart rate in the hidden workout", "heart rate in a workout that does not exist"),
        ("route data of the hidden route", "route data of a route that does not exist"),
        ("effort scores related to the hidden workout", "effort scores related to a workout that does not exist"),
        ("effort relationships of the hidden workout", "effort relationships of a workout that does not exist"),
        // Relating needs a readable workout: allowed in `authorized` only, where it succeeds.
        ("effort: relate its score to the hidden workout", "effort: relate its score to a workout that does not exist"),
        ("effort: unrelate its score from the hidden workout", "effort: unrelate its score from a workout that does not exist"),
    ] + attachmentReadTwins
}
