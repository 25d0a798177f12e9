import Foundation
import HealthKit

// Snippets for vision prescriptions (iOS 16), written as Apple's pages show them (see
// AppleSnippets.swift). Only the `print` lines are the test's.

/// developer.apple.com/documentation/healthkit/hkvisionprism (the prism and right-eye lens
/// exactly as that page builds them), …/hkglassesprescription, …/hkcontactsprescription,
/// …/hkvisionprescription/init(type:dateissued:expirationdate:device:metadata:) and
/// …/hksamplepredicate/visionprescription(_:): three prescriptions saved by their owner and read
/// back (an app sees what it saved itself without any read grant). Prints, in order: how many
/// came back, the glasses' right sphere in D, its prism amount in pD and angle in degrees, its
/// prism's vertical and horizontal bases, the contacts' brand and left diameter in mm, and the
/// plain prescription's class and type.
/// `save` and `read` run the halves alone (for the locked-store test).
func visionPrescriptionsSnippet(_ healthStore: HKHealthStore, save: Bool = true, read: Bool = true) async throws {
    if save { try await saveVisionPrescriptions(healthStore) }
    if read { try await readVisionPrescriptions(healthStore) } else { print("ok saved") }
}

private let issued = Date(timeIntervalSince1970: 1_700_000_000)

private func saveVisionPrescriptions(_ healthStore: HKHealthStore) async throws {
    // The correction for eye alignment.
    let prismQuantity = HKQuantity(unit: .prismDiopter(), doubleValue: +0.25)
    let angle = HKQuantity(unit: .degreeAngle(), doubleValue: 15.0)
    let prism = HKVisionPrism(amount: prismQuantity,
                              angle: angle,
                              eye: .right)
    let sphere = HKQuantity(unit: .diopter(), doubleValue: -2.25)
    let cylinder = HKQuantity(unit: .diopter(), doubleValue: -0.5)
    let axis = HKQuantity(unit: .degreeAngle(), doubleValue: 90)
    let addPower = HKQuantity(unit: .diopter(), doubleValue: 1.5)
    let vertexDistance = HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 12)
    let farPD = HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 32)
    let nearPD = HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 30)
    // The prescription for the right eye.
    let glassesRightEye = HKGlassesLensSpecification(sphere: sphere,
                                                     cylinder: cylinder,
                                                     axis: axis,
                                                     addPower: addPower,
                                                     vertexDistance: vertexDistance,
                                                     prism: prism,
                                                     farPupillaryDistance: farPD,
                                                     nearPupillaryDistance: nearPD)
    let glassesLeftEye = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -2),
                                                    cylinder: nil, axis: nil, addPower: nil, vertexDistance: nil, prism: nil,
                                                    farPupillaryDistance: nil, nearPupillaryDistance: nil)
    let glasses = HKGlassesPrescription(rightEyeSpecification: glassesRightEye,
                                        leftEyeSpecification: glassesLeftEye,
                                        dateIssued: issued,
                                        expirationDate: issued.addingTimeInterval(2 * 365 * 86_400),
                                        device: nil,
                                        metadata: nil)
    // Contact lenses: the base curve and diameter in millimetres, here given in centimetres.
    let contactsLeftEye = HKContactsLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -1.75),
                                                      cylinder: nil, axis: nil, addPower: nil,
                                                      baseCurve: HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 8.6),
                                                      diameter: HKQuantity(unit: .meterUnit(with: .centi), doubleValue: 1.42))
    let contacts = HKContactsPrescription(rightEyeSpecification: nil, leftEyeSpecification: contactsLeftEye, brand: "Acme Daily",
                                          dateIssued: issued, expirationDate: nil, device: nil, metadata: nil)
    // Create a minimal prescription sample that just holds an image attachment.
    let prescription = HKVisionPrescription(type: .glasses,
                                            dateIssued: issued,
                                            expirationDate: nil,
                                            device: nil,
                                            metadata: nil)
    try await healthStore.save([glasses, contacts, prescription])
}

private func readVisionPrescriptions(_ healthStore: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: [])
    let results = try await descriptor.result(for: healthStore)
    guard let glasses = results.compactMap({ $0 as? HKGlassesPrescription }).first,
          let contacts = results.compactMap({ $0 as? HKContactsPrescription }).first,
          let plain = results.first(where: { !($0 is HKGlassesPrescription) && !($0 is HKContactsPrescription) }),
          let right = glasses.rightEye, let prism = right.prism, let left = contacts.leftEye else {
        usage("the saved prescriptions were not found: \(results.count)")
    }
    print("ok \(results.count) \(right.sphere.doubleValue(for: .diopter())) \(prism.amount.doubleValue(for: .prismDiopter()))"
          + " \(prism.angle.doubleValue(for: .degreeAngle())) \(prism.verticalBase) \(prism.horizontalBase)"
          + " \(contacts.brand) \(left.diameter?.doubleValue(for: .meterUnit(with: .milli)) ?? -1)"
          + " \(type(of: plain)) \(plain.prescriptionType) \(glasses.dateIssued == issued)")
}

/// developer.apple.com/documentation/healthkit/hkobjecttype/requiresperobjectauthorization():
/// the type reports true, and asking for it in requestAuthorization's read set is refused (apps
/// see NSInvalidArgumentException "Authorization to read the following types is disallowed:
/// HKVisionPrescriptionTypeIdentifier"; here errorInvalidArgument with that message), while
/// asking to share it is an ordinary request. Prints the flag, the refusal's code and message.
func visionReadRequestRefusedSnippet(_ healthStore: HKHealthStore) async throws {
    let visionPrescriptionType = HKObjectType.visionPrescriptionType()
    let perObject = visionPrescriptionType.requiresPerObjectAuthorization()
    do {
        try await healthStore.requestAuthorization(toShare: [], read: [visionPrescriptionType])
        usage("a type-wide read request for vision prescriptions was accepted")
    } catch let error as HKError {
        print("ok \(perObject) \(error.code.rawValue) \(error.message)")
    }
}

/// A glasses lens whose sphere is given in the wrong unit, and one with a sphere past ±40 D:
/// HealthKit raises an exception for the unit; here `save` fails with errorInvalidArgument naming
/// the field and the unit. Prints each refusal's code and whether it names the field.
func visionRefusedSnippet(_ healthStore: HKHealthStore) async throws {
    var printed: [String] = []
    for (sphere, field) in [(HKQuantity(unit: .meter(), doubleValue: 1), "sphere"),
                            (HKQuantity(unit: .diopter(), doubleValue: -45), "sphere must be a finite number of D")] {
        let lens = HKGlassesLensSpecification(sphere: sphere, cylinder: nil, axis: nil, addPower: nil, vertexDistance: nil,
                                              prism: nil, farPupillaryDistance: nil, nearPupillaryDistance: nil)
        let prescription = HKGlassesPrescription(rightEyeSpecification: lens, leftEyeSpecification: nil, dateIssued: issued,
                                                 expirationDate: nil, device: nil, metadata: nil)
        do {
            try await healthStore.save(prescription)
            usage("an invalid prescription was saved")
        } catch let error as HKError {
            printed.append("\(error.code.rawValue):\(error.message.contains(field))")
        }
    }
    print("ok \(printed.joined(separator: " "))")
}

/// developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:):
/// the app asks for per-object read access to vision prescriptions (the call returns once the
/// user answered), then reads them. Prints how many it sees and their classes.
func visionPerObjectReadSnippet(_ healthStore: HKHealthStore) async throws {
    let visionPrescriptionType = HKObjectType.visionPrescriptionType()
    try await healthStore.requestPerObjectReadAuthorization(for: visionPrescriptionType, predicate: nil)
    try await printVisiblePrescriptions(healthStore)
}

/// How many prescriptions the app sees now, and their classes.
func printVisiblePrescriptions(_ healthStore: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: [])
    let results = try await descriptor.result(for: healthStore)
    print("ok \(results.count) \(results.map { "\(type(of: $0))" }.sorted().joined(separator: ","))")
}
