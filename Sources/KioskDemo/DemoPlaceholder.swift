// Placeholder so the target builds until the sample-sources server lands.
enum DemoPlaceholder {}
