// `import HealthKit` brings the model's types (HKUnit, HKQuantityType, HKError, the identifier
// and metadata-key constants…) with it, as Apple's single HealthKit module does. They are
// defined once, in HealthModel, so the SDK, the broker and healthctl share one definition.
@_exported public import HealthModel
// Apple's HealthKit re-exports Foundation (Date, UUID, NSPredicate, SortDescriptor); ported
// files that import only HealthKit rely on it.
@_exported public import Foundation
