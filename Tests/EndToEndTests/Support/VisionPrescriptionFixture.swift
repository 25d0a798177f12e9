/// Vision prescriptions in export.xml (HealthKit Export Version 14's `VisionPrescription`):
/// glasses with a prism in both eyes' form, contacts with a brand, a plain prescription, and
/// Apple's own element (no source, an attachment the import counts and leaves out).
enum VisionPrescriptionFixture {
    static let xml = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <ExportDate value="2024-06-01 10:00:00 +0200"/>
     <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2024-05-01 08:00:00 +0200" expirationDate="2026-05-01 08:00:00 +0200" sourceName="Optician app" sourceVersion="3.1">
      <RightEye sphere="-2.25" sphereUnit="D" cylinder="-0.75" cylinderUnit="D" axis="180" axisUnit="deg" add="1.5" addUnit="D" vertex="12" vertexUnit="mm" prismAmount="1.25" prismAmountUnit="pD" prismAngle="270" prismAngleUnit="deg" farPD="32.5" farPDUnit="mm" nearPD="30" nearPDUnit="mm"/>
      <LeftEye sphere="0.125" sphereUnit="D" add="1.5" addUnit="D"/>
      <MetadataEntry key="HKWasUserEntered" value="1"/>
     </VisionPrescription>
     <VisionPrescription type="HKVisionPrescriptionTypeContacts" dateIssued="2024-04-02 09:30:00 +0200" brand="Acme Daily &amp; Co" sourceName="Optician app">
      <RightEye sphere="-3" sphereUnit="D" baseCurve="8.6" baseCurveUnit="mm" diameter="14.2" diameterUnit="mm"/>
      <LeftEye sphere="-2.75" sphereUnit="D" cylinder="-1.25" cylinderUnit="D" axis="90" axisUnit="deg" baseCurve="8.6" baseCurveUnit="mm" diameter="14.2" diameterUnit="mm"/>
     </VisionPrescription>
     <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2023-01-15 12:00:00 +0100" sourceName="Scanner">
     </VisionPrescription>
     <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2022-03-03 10:00:00 +0100" expirationDate="2023-03-03 10:00:00 +0100">
      <RightEye sphere="-1.5" sphereUnit="D" vertex="1.2" vertexUnit="cm"/>
      <LeftEye sphere="-1.25" sphereUnit="D"/>
      <Attachment identifier="8B6F0C2E-1111-4D7B-9C4E-000000000001"/>
     </VisionPrescription>
    </HealthData>
    """#
}
