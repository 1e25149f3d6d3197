/* good.h: the declarations of good.gir (test-check-gir-docs.py). */
typedef enum {
  PSC_MOOD_EARLY,
  PSC_MOOD_LATE PSC_AVAILABLE_ENUMERATOR_IN_0_2,
} PscMood;

PSC_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (PscThing, psc_thing, PSC, THING, GObject)

PSC_AVAILABLE_IN_0_2
void psc_thing_poke (PscThing *self);

PSC_AVAILABLE_IN_0_1
guint psc_thing_count (void);
