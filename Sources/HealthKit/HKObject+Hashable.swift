/// HealthKit's objects are NSObjects, which sets can hold (`HKCorrelation.objects` is a
/// `Set<HKSample>`). Equality is identity, not the UUID: an unsaved object's UUID changes when
/// a save assigns the broker's, and a hash must not change while the object sits in a set. Two
/// fetches of the same stored sample are therefore different objects; compare their `uuid`s.
extension HKObject: Hashable {
    public static func == (lhs: HKObject, rhs: HKObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
