import HealthModel
import Testing

/// A `SampleRecord.Value` is carried by every fetched `HKSample` (`recordValue`) and by every
/// record healthd decodes, validates and copies while it saves; an enum is as large as its
/// largest case, so one wide inline payload (`WorkoutValue`: about 180 bytes by its fields) made every
/// quantity sample carry it (issue 17, Benchmarks/README.md "Session 14"). Cases with a struct
/// of several fields are `indirect`; a new wide case must be too.
@Suite(.timeLimit(.minutes(10))) struct SampleRecordLayoutTests {
    @Test func aValueIsNoLargerThanAQuantity() {
        // A quantity: a Double and the unit's String (8 + 16 bytes), plus the case tag.
        #expect(MemoryLayout<SampleRecord.Value>.size <= 32, "SampleRecord.Value is \(MemoryLayout<SampleRecord.Value>.size) bytes")
    }
}
