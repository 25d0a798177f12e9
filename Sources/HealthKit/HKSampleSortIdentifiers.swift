/// HealthKit's sort keys for `NSSortDescriptor(key:ascending:)` in sample queries.
public let HKSampleSortIdentifierStartDate = "startDate"
public let HKSampleSortIdentifierEndDate = "endDate"
