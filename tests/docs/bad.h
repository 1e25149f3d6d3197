/* bad.h: the declarations of bad.gir (test-check-gir-docs.py). */
PSC_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (PscThing, psc_thing, PSC, THING, GObject)

PSC_AVAILABLE_IN_0_2
void psc_thing_mismatch (PscThing *self);

PSC_AVAILABLE_IN_0_1
void psc_thing_future (PscThing *self);

PSC_AVAILABLE_IN_0_1
guint psc_thing_returns_only (PscThing *self);

PSC_AVAILABLE_IN_0_1
void psc_undocumented_function (void);

PSC_AVAILABLE_IN_0_1
void psc_unversioned_function (void);

void psc_unmarked_function (void);

/* In no GIR: a declaration the scanner never saw documented. */
PSC_AVAILABLE_IN_0_1
void psc_not_in_gir (void);
