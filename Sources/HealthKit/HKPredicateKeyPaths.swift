// HealthKit's predicate key path constants (HKQuery.h, HKWorkout.h, HKCDADocumentSample.h,
// HKWorkoutEffortRelationshipQuery.h), with the values Apple's SDK holds
// (spec/healthkit/string_constants.tsv, dyld-extracted). They exist so that code naming them
// compiles and can print or compare them; swift-corelibs-foundation has no
// `NSPredicate(format:)`, so a predicate built from them with a format string does not work
// here: use the `HKQuery.predicateFor…` functions, which every query translates. The dose event
// key paths (`HKPredicateKeyPathStatus`, …) are in HKMedicationDoseEvent.swift.
public let HKPredicateKeyPathCategoryValue = "value"
public let HKPredicateKeyPathCorrelation = "correlation"
public let HKPredicateKeyPathEndDate = "endDate"
public let HKPredicateKeyPathStartDate = "startDate"
public let HKPredicateKeyPathMetadata = "metadata"
public let HKPredicateKeyPathQuantity = "quantity"
public let HKPredicateKeyPathSource = "source"
public let HKPredicateKeyPathUUID = "UUID"
public let HKPredicateKeyPathWorkout = "workout"
public let HKPredicateKeyPathWorkoutDuration = "duration"
public let HKPredicateKeyPathWorkoutTotalDistance = "totalDistance"  // deprecated in Apple's SDK
public let HKPredicateKeyPathWorkoutTotalEnergyBurned = "totalEnergyBurned"  // deprecated 18.0 in Apple's SDK
public let HKPredicateKeyPathWorkoutType = "workoutType"
public let HKPredicateKeyPathDevice = "device"
public let HKPredicateKeyPathSourceRevision = "sourceRevision"
public let HKPredicateKeyPathWorkoutTotalSwimmingStrokeCount = "totalSwimmingStrokeCount"  // deprecated 18.0 in Apple's SDK
public let HKPredicateKeyPathWorkoutTotalFlightsClimbed = "totalFlightsClimbed"  // deprecated 18.0 in Apple's SDK
public let HKPredicateKeyPathCDAAuthorName = "author_name"
public let HKPredicateKeyPathCDACustodianName = "custodian_name"
public let HKPredicateKeyPathCDAPatientName = "patient_name"
public let HKPredicateKeyPathCDATitle = "title"
public let HKPredicateKeyPathWorkoutEffortRelationship = "ratingOfExertionAssociation"
