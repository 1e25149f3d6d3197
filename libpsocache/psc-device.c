/* psc-device.c: PscDevice, the Vulkan device a cache works on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/**
 * PscDevice:
 *
 * The Vulkan device a [class@Psc.Cache] works on.
 *
 * A device either wraps Vulkan objects the application created
 * ([ctor@Psc.Device.new_for_vulkan]; the application keeps owning them), or
 * owns a headless instance and device of its own
 * ([ctor@Psc.Device.new_headless]) for tools, tests and bindings.
 *
 * A device implements [iface@Gio.Initable]: construction that can fail
 * (no Vulkan loader, no device, a missing validation layer, an inconsistent
 * description) fails with a #GError. Besides the two constructors,
 * `g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "headless", TRUE,
 * "physical-device-index", 1, NULL)` sets the construct-only properties
 * directly. One of [property@Psc.Device:headless] and
 * [property@Psc.Device:vulkan-info] is required: initialization without
 * either fails with %PSC_ERROR_INVALID_ARGUMENT. A device made with
 * g_object_new() and not (or not successfully) initialized has no Vulkan
 * objects: its getters answer 0 or %NULL, and a [class@Psc.Cache] refuses
 * it (%PSC_ERROR_INVALID_ARGUMENT). From Python, `Psc.Device.new_headless
 * (flags)` raises on failure; with the `Psc` override installed with the
 * typelib, `Psc.Device (headless=True)` initializes too, and `Psc.Device ()`
 * raises.
 *
 * Either way the device records the features that were *enabled* when the
 * `VkDevice` was created. Caches decide what they may use (for example the
 * dynamic-rendering backend) from that snapshot, never from what the
 * physical device merely supports. For a device wrapped with
 * [ctor@Psc.Device.new_for_vulkan], *enabled* means what the application's
 * `enabled_features` chain says; what no feature structure can say (an
 * enabled extension, see [property@Psc.Device:creation-feedback]) is
 * reported as not enabled.
 *
 * Its identity is readable as properties (from Python too):
 * [property@Psc.Device:name], [property@Psc.Device:vendor-id],
 * [property@Psc.Device:device-id], [property@Psc.Device:driver-name],
 * [property@Psc.Device:driver-info], [property@Psc.Device:driver-version],
 * [property@Psc.Device:api-version] and
 * [property@Psc.Device:pipeline-cache-uuid]; and the enabled features that
 * matter to a cache: [property@Psc.Device:dynamic-rendering],
 * [property@Psc.Device:pipeline-creation-cache-control],
 * [property@Psc.Device:creation-feedback] and
 * [property@Psc.Device:descriptor-indexing].
 *
 * All Vulkan entry points are loaded through a `vkGetInstanceProcAddr`: the
 * application's, or for a headless device the one of the system loader
 * (`libvulkan.so.1`, opened at run time). The library never links the Vulkan
 * loader and never uses global function pointers, so layers see its calls and
 * an application that loads Vulkan itself is not disturbed.
 *
 * A device is immutable after construction and may be used from any thread;
 * its properties never change except [property@Psc.Device:validation-error-count].
 *
 * Since: 0.1
 */

#define PSC_ALL_DEVICE_FLAGS (PSC_DEVICE_FLAGS_VALIDATION | PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING | \
                              PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING)
#define PSC_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
/* Guards against cyclic or corrupt pNext chains in the enabled features. */
#define PSC_MAX_FEATURE_CHAIN 64

struct _PscDevice
{
  GObject parent_instance;

  /* Construct-only properties. "vulkan-info" is checked and copied (its
   * features snapshotted) when it is set, so the caller's memory need not
   * outlive the call; what was wrong is reported by initialization. */
  gboolean headless;
  PscDeviceFlags flags;         /* headless only */
  guint physical_device_index;  /* headless only */
  gboolean has_given_info;
  GError *given_error;

  /* Initialization (GInitable), once. */
  gboolean init_done;
  GError *init_error;
  gboolean ready;

  /* A copy of the description (the caller's, or what a headless device
   * created); enabled_features points into the snapshot below (or is
   * NULL). */
  PscDeviceInfo info;

  char *name;
  guint32 driver_version;
  guint32 vendor_id, device_id;
  guint32 max_push_constants_size; /* VkPhysicalDeviceLimits */
  guint8 pipeline_cache_uuid[VK_UUID_SIZE];
  char *pipeline_cache_uuid_hex;  /* 32 lower-case hex digits */
  char *driver_name, *driver_info;  /* "" when the driver cannot tell */
  guint32 api_version;          /* min (instance apiVersion, device apiVersion) */
  gboolean dynamic_rendering;   /* enabled, from the snapshot */
  gboolean cache_control;       /* pipelineCreationCacheControl enabled (1.3) */
  gboolean creation_feedback;   /* VkPipelineCreationFeedback chained (1.3) */
  gboolean descriptor_indexing; /* a descriptor-indexing feature enabled */
  VkPhysicalDeviceLimits limits; /* the physical device's */

  /* Snapshot of the enabled-feature chain. Only the structures we know are
   * kept; they are relinked in a fixed order. */
  VkPhysicalDeviceFeatures2 features;
  VkPhysicalDeviceVulkan11Features features11;
  VkPhysicalDeviceVulkan12Features features12;
  VkPhysicalDeviceVulkan13Features features13;
  VkPhysicalDeviceDynamicRenderingFeatures features_dr;
  VkPhysicalDevicePipelineCreationCacheControlFeatures features_cc;
  VkPhysicalDeviceDescriptorIndexingFeatures features_di;
  gboolean has_features, has_features11, has_features12, has_features13, has_features_dr;
  gboolean has_features_cc, has_features_di;

  /* Headless only: what this object owns and how to destroy it. */
  void *loader;
  PFN_vkDestroyInstance destroy_instance;
  PFN_vkDestroyDevice destroy_device;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
  VkDebugUtilsMessengerEXT messenger;
  VkInstance owned_instance;
  VkDevice owned_device;

  /* Written by the messenger callback, which may run on any thread. */
  gint validation_errors;
};

/* The first version of PscDeviceInfo ends with queue: a smaller size is
 * refused, never read. */
#define PSC_DEVICE_INFO_SIZE_0_1 (offsetof (PscDeviceInfo, queue) + sizeof (VkQueue))

static void psc_device_initable_iface_init (GInitableIface *iface);
static void psc_device_set_vulkan_info (PscDevice *self, const PscDeviceInfo *given);
static gboolean psc_has_extension (const VkExtensionProperties *exts, guint32 n, const char *name);

G_DEFINE_FINAL_TYPE_WITH_CODE (PscDevice, psc_device, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      psc_device_initable_iface_init))

enum {
  PROP_0,
  PROP_NAME,
  PROP_DRIVER_VERSION,
  PROP_API_VERSION,
  PROP_DYNAMIC_RENDERING,
  PROP_HEADLESS,
  PROP_FLAGS,
  PROP_PHYSICAL_DEVICE_INDEX,
  PROP_VULKAN_INFO,
  PROP_VALIDATION_ERROR_COUNT,
  PROP_VENDOR_ID,
  PROP_DEVICE_ID,
  PROP_DRIVER_NAME,
  PROP_DRIVER_INFO,
  PROP_PIPELINE_CACHE_UUID,
  PROP_PIPELINE_CREATION_CACHE_CONTROL,
  PROP_CREATION_FEEDBACK,
  PROP_DESCRIPTOR_INDEXING,
  PROP_MAX_PUSH_CONSTANTS_SIZE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
psc_device_finalize (GObject *object)
{
  PscDevice *self = PSC_DEVICE (object);

  /* Only a headless device owns Vulkan objects. Reverse creation order. */
  if (self->owned_device != VK_NULL_HANDLE && self->destroy_device != NULL)
    self->destroy_device (self->owned_device, NULL);
  if (self->messenger != VK_NULL_HANDLE && self->destroy_messenger != NULL)
    self->destroy_messenger (self->owned_instance, self->messenger, NULL);
  if (self->owned_instance != VK_NULL_HANDLE && self->destroy_instance != NULL)
    self->destroy_instance (self->owned_instance, NULL);
  if (self->loader != NULL)
    dlclose (self->loader);

  g_free (self->name);
  g_free (self->pipeline_cache_uuid_hex);
  g_free (self->driver_name);
  g_free (self->driver_info);
  g_clear_error (&self->given_error);
  g_clear_error (&self->init_error);

  G_OBJECT_CLASS (psc_device_parent_class)->finalize (object);
}

static void
psc_device_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PscDevice *self = PSC_DEVICE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_DRIVER_VERSION:
      g_value_set_uint (value, self->driver_version);
      break;
    case PROP_API_VERSION:
      g_value_set_uint (value, self->api_version);
      break;
    case PROP_DYNAMIC_RENDERING:
      g_value_set_boolean (value, self->dynamic_rendering);
      break;
    case PROP_HEADLESS:
      g_value_set_boolean (value, self->headless);
      break;
    case PROP_FLAGS:
      g_value_set_flags (value, self->flags);
      break;
    case PROP_PHYSICAL_DEVICE_INDEX:
      g_value_set_uint (value, self->physical_device_index);
      break;
    case PROP_VALIDATION_ERROR_COUNT:
      g_value_set_uint (value, psc_device_get_validation_error_count (self));
      break;
    case PROP_VENDOR_ID:
      g_value_set_uint (value, self->vendor_id);
      break;
    case PROP_DEVICE_ID:
      g_value_set_uint (value, self->device_id);
      break;
    case PROP_DRIVER_NAME:
      g_value_set_string (value, self->driver_name);
      break;
    case PROP_DRIVER_INFO:
      g_value_set_string (value, self->driver_info);
      break;
    case PROP_PIPELINE_CACHE_UUID:
      g_value_set_string (value, self->pipeline_cache_uuid_hex);
      break;
    case PROP_PIPELINE_CREATION_CACHE_CONTROL:
      g_value_set_boolean (value, self->cache_control);
      break;
    case PROP_CREATION_FEEDBACK:
      g_value_set_boolean (value, self->creation_feedback);
      break;
    case PROP_DESCRIPTOR_INDEXING:
      g_value_set_boolean (value, self->descriptor_indexing);
      break;
    case PROP_MAX_PUSH_CONSTANTS_SIZE:
      g_value_set_uint (value, self->max_push_constants_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
psc_device_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  PscDevice *self = PSC_DEVICE (object);

  switch (prop_id)
    {
    case PROP_HEADLESS:
      self->headless = g_value_get_boolean (value);
      break;
    case PROP_FLAGS:
      self->flags = g_value_get_flags (value);
      break;
    case PROP_PHYSICAL_DEVICE_INDEX:
      self->physical_device_index = g_value_get_uint (value);
      break;
    case PROP_VULKAN_INFO:
      psc_device_set_vulkan_info (self, g_value_get_pointer (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
psc_device_class_init (PscDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  psc_i18n_init ();

  object_class->finalize = psc_device_finalize;
  object_class->get_property = psc_device_get_property;
  object_class->set_property = psc_device_set_property;

  /**
   * PscDevice:name:
   *
   * The physical device's name, as the driver reports it.
     *
   * Since: 0.1
 */
  props[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:driver-version:
   *
   * The driver version, in the driver's own encoding
   * (`VkPhysicalDeviceProperties.driverVersion`).
     *
   * Since: 0.1
 */
  props[PROP_DRIVER_VERSION] =
    g_param_spec_uint ("driver-version", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:api-version:
   *
   * The Vulkan API version caches may use on this device: the lower of the
   * instance's `apiVersion` and the physical device's, encoded like
   * `VK_MAKE_API_VERSION`.
     *
   * Since: 0.1
 */
  props[PROP_API_VERSION] =
    g_param_spec_uint ("api-version", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:dynamic-rendering:
   *
   * Whether dynamic rendering was enabled when the `VkDevice` was created
   * (through `VkPhysicalDeviceVulkan13Features` on a Vulkan 1.3 device, or
   * `VkPhysicalDeviceDynamicRenderingFeatures`). What the physical device
   * supports does not matter.
     *
   * Since: 0.1
 */
  props[PROP_DYNAMIC_RENDERING] =
    g_param_spec_boolean ("dynamic-rendering", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:headless:
   *
   * Whether this object creates (and owns) its instance and device, as
   * [ctor@Psc.Device.new_headless] describes, instead of wrapping the
   * application's ([property@Psc.Device:vulkan-info]).
   *
   * Since: 0.1
   */
  props[PROP_HEADLESS] =
    g_param_spec_boolean ("headless", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:flags:
   *
   * How a headless device is created. Only headless devices take flags: a
   * wrapping device with flags fails to initialize
   * (%PSC_ERROR_INVALID_ARGUMENT).
   *
   * Since: 0.1
   */
  props[PROP_FLAGS] =
    g_param_spec_flags ("flags", NULL, NULL, PSC_TYPE_DEVICE_FLAGS, PSC_DEVICE_FLAGS_NONE,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:physical-device-index:
   *
   * Which physical device a headless device uses, in the order
   * `vkEnumeratePhysicalDevices` lists them; 0 (the default) is the first.
   * An index that names no device fails initialization with
   * %PSC_ERROR_NO_DEVICE. Headless devices only.
   *
   * Since: 0.1
   */
  props[PROP_PHYSICAL_DEVICE_INDEX] =
    g_param_spec_uint ("physical-device-index", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:vulkan-info: (skip)
   *
   * A `const PscDeviceInfo *` describing the application's Vulkan objects
   * to wrap, as for [ctor@Psc.Device.new_for_vulkan] (for C; bindings use
   * headless devices). Write-only and construct-only; the structure (and
   * its enabled-feature chain) is checked and copied when the property is
   * set, and what was wrong with it is reported by initialization.
   *
   * Since: 0.1
   */
  props[PROP_VULKAN_INFO] =
    g_param_spec_pointer ("vulkan-info", NULL, NULL,
                          G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:validation-error-count:
   *
   * How many error-severity messages the validation layer reported on a
   * headless device created with %PSC_DEVICE_FLAGS_VALIDATION. The count may
   * change from any thread, so it is read on demand and never notified.
     *
   * Since: 0.1
 */
  props[PROP_VALIDATION_ERROR_COUNT] =
    g_param_spec_uint ("validation-error-count", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:vendor-id:
   *
   * The physical device's vendor (`VkPhysicalDeviceProperties.vendorID`:
   * a PCI vendor id such as 0x10de, or a Khronos vendor id such as
   * `VK_VENDOR_ID_MESA` for software drivers). 0 on a device that is not
   * initialized. Part of the identity persistent driver data is checked
   * against (docs/persistence.md).
   *
   * Since: 0.3
   */
  props[PROP_VENDOR_ID] =
    g_param_spec_uint ("vendor-id", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:device-id:
   *
   * The physical device's id within its vendor
   * (`VkPhysicalDeviceProperties.deviceID`). 0 on a device that is not
   * initialized.
   *
   * Since: 0.3
   */
  props[PROP_DEVICE_ID] =
    g_param_spec_uint ("device-id", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:driver-name:
   *
   * The driver's name (`VkPhysicalDeviceDriverProperties.driverName`, for
   * example `llvmpipe` for Mesa's lavapipe), read when the device can
   * report it: a Vulkan 1.2 device, or a Vulkan 1.1 one that has
   * `VK_KHR_driver_properties`. Otherwise the empty string. %NULL only on
   * a device that is not initialized.
   *
   * Since: 0.3
   */
  props[PROP_DRIVER_NAME] =
    g_param_spec_string ("driver-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:driver-info:
   *
   * The driver's own description of itself
   * (`VkPhysicalDeviceDriverProperties.driverInfo`, for example a Mesa
   * version and LLVM version), when [property@Psc.Device:driver-name] can
   * be read; otherwise the empty string. %NULL only on a device that is
   * not initialized.
   *
   * Since: 0.3
   */
  props[PROP_DRIVER_INFO] =
    g_param_spec_string ("driver-info", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:pipeline-cache-uuid:
   *
   * The driver's `VkPhysicalDeviceProperties.pipelineCacheUUID` as 32
   * lower-case hexadecimal digits, byte 0 first (no dashes). Pipeline-cache
   * data is only usable by a driver with the same UUID: the persistent
   * driver files are checked against it. %NULL only on a device that is not
   * initialized.
   *
   * Since: 0.3
   */
  props[PROP_PIPELINE_CACHE_UUID] =
    g_param_spec_string ("pipeline-cache-uuid", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:pipeline-creation-cache-control:
   *
   * Whether `pipelineCreationCacheControl` was enabled when the `VkDevice`
   * was created, on a Vulkan 1.3 device (through
   * `VkPhysicalDeviceVulkan13Features` or
   * `VkPhysicalDevicePipelineCreationCacheControlFeatures`). Caches need it
   * for [method@Psc.Cache.verify_warm], which creates with
   * `VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT`. On an older
   * device (where only `VK_EXT_pipeline_creation_cache_control` offers it)
   * it is %FALSE: caches do not use the extension.
   *
   * Since: 0.3
   */
  props[PROP_PIPELINE_CREATION_CACHE_CONTROL] =
    g_param_spec_boolean ("pipeline-creation-cache-control", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:creation-feedback:
   *
   * Whether caches on this device ask the driver for pipeline-creation
   * feedback (`VkPipelineCreationFeedbackCreateInfo`) and so count
   * %PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS and
   * %PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES. Feedback is core in Vulkan
   * 1.3 and has no feature to enable, so this is %TRUE exactly when
   * [property@Psc.Device:api-version] is 1.3 or later. On an older device
   * an application may have enabled `VK_EXT_pipeline_creation_feedback`,
   * but [struct@Psc.DeviceInfo] does not list enabled extensions, so the
   * cache cannot know it: it reports %FALSE and does not chain the
   * structure.
   *
   * Since: 0.3
   */
  props[PROP_CREATION_FEEDBACK] =
    g_param_spec_boolean ("creation-feedback", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:descriptor-indexing:
   *
   * Whether a descriptor-indexing feature was enabled when the `VkDevice`
   * was created: `descriptorIndexing` or any of the descriptor-indexing
   * members of `VkPhysicalDeviceVulkan12Features` (Vulkan 1.2), or any
   * member of `VkPhysicalDeviceDescriptorIndexingFeatures`
   * (`VK_EXT_descriptor_indexing`). Descriptor-set layouts with binding
   * flags (`VkDescriptorSetLayoutBindingFlagsCreateInfo`) or
   * update-after-bind pools need them. The cache keys such layouts
   * either way (the driver and the validation layer check the features);
   * the property tells bindings and tools what the device allows.
   *
   * Since: 0.3
   */
  props[PROP_DESCRIPTOR_INDEXING] =
    g_param_spec_boolean ("descriptor-indexing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscDevice:max-push-constants-size:
   *
   * The physical device's `VkPhysicalDeviceLimits.maxPushConstantsSize`:
   * how many bytes of push constants a pipeline layout may declare (at
   * least 128 on every conforming driver). Material instances check their
   * inline payloads against it (see [ctor@Psc.MaterialInstance.new_inline]).
   * 0 on a device that is not initialized.
   *
   * Since: 0.3
   */
  props[PROP_MAX_PUSH_CONSTANTS_SIZE] =
    g_param_spec_uint ("max-push-constants-size", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
psc_device_init (PscDevice *self)
{
}

/* Snapshot of the enabled-feature chain ---------------------------------- */

static gboolean
psc_device_snapshot_features (PscDevice                       *self,
                              const VkPhysicalDeviceFeatures2 *enabled,
                              GError                         **error)
{
  const VkBaseInStructure *s;
  VkBaseOutStructure *tail;
  guint depth = 0;

  if (enabled == NULL)
    return TRUE;

  if (enabled->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("enabled_features->sType: %d is not VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2"),
                   (int) enabled->sType);
      return FALSE;
    }

  self->features = *enabled;
  self->has_features = TRUE;

  for (s = enabled->pNext; s != NULL; s = s->pNext)
    {
      if (++depth > PSC_MAX_FEATURE_CHAIN)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("enabled_features->pNext: the chain is longer than %d structures (cyclic?)"),
                       PSC_MAX_FEATURE_CHAIN);
          return FALSE;
        }

      /* The first instance of each structure wins (Vulkan forbids
       * duplicates). Unknown structures are skipped. */
      switch ((int) s->sType)
        {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
          if (!self->has_features11)
            {
              self->features11 = *(const VkPhysicalDeviceVulkan11Features *) s;
              self->has_features11 = TRUE;
            }
          break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
          if (!self->has_features12)
            {
              self->features12 = *(const VkPhysicalDeviceVulkan12Features *) s;
              self->has_features12 = TRUE;
            }
          break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
          if (!self->has_features13)
            {
              self->features13 = *(const VkPhysicalDeviceVulkan13Features *) s;
              self->has_features13 = TRUE;
            }
          break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
          if (!self->has_features_dr)
            {
              self->features_dr = *(const VkPhysicalDeviceDynamicRenderingFeatures *) s;
              self->has_features_dr = TRUE;
            }
          break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
          if (!self->has_features_cc)
            {
              self->features_cc = *(const VkPhysicalDevicePipelineCreationCacheControlFeatures *) s;
              self->has_features_cc = TRUE;
            }
          break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
          if (!self->has_features_di)
            {
              self->features_di = *(const VkPhysicalDeviceDescriptorIndexingFeatures *) s;
              self->has_features_di = TRUE;
            }
          break;
        default:
          break;
        }
    }

  /* Relink the copies among themselves, never into the caller's memory. */
  tail = (VkBaseOutStructure *) &self->features;
  tail->pNext = NULL;
#define PSC_LINK(flag, member) \
  if (self->flag) \
    { \
      tail->pNext = (VkBaseOutStructure *) &self->member; \
      tail = tail->pNext; \
      tail->pNext = NULL; \
    }
  PSC_LINK (has_features11, features11)
  PSC_LINK (has_features12, features12)
  PSC_LINK (has_features13, features13)
  PSC_LINK (has_features_dr, features_dr)
  PSC_LINK (has_features_cc, features_cc)
  PSC_LINK (has_features_di, features_di)
#undef PSC_LINK

  return TRUE;
}

/* Copies @info (whose size was checked: it is this library's version) and
 * snapshots its enabled features, so the caller's memory may go. */
static gboolean
psc_device_take_info (PscDevice           *self,
                      const PscDeviceInfo *info,
                      GError             **error)
{
  self->info = *info;
  self->info.size = sizeof (PscDeviceInfo);
  self->info.enabled_features = NULL;

  if (!psc_device_snapshot_features (self, info->enabled_features, error))
    return FALSE;
  if (self->has_features)
    self->info.enabled_features = &self->features;
  return TRUE;
}

/* The descriptor-indexing features, by their Vulkan member names (the
 * same in VkPhysicalDeviceVulkan12Features and
 * VkPhysicalDeviceDescriptorIndexingFeatures). */
#define PSC_DI_FEATURES(X) \
  X (shaderInputAttachmentArrayDynamicIndexing) \
  X (shaderUniformTexelBufferArrayDynamicIndexing) \
  X (shaderStorageTexelBufferArrayDynamicIndexing) \
  X (shaderUniformBufferArrayNonUniformIndexing) \
  X (shaderSampledImageArrayNonUniformIndexing) \
  X (shaderStorageBufferArrayNonUniformIndexing) \
  X (shaderStorageImageArrayNonUniformIndexing) \
  X (shaderInputAttachmentArrayNonUniformIndexing) \
  X (shaderUniformTexelBufferArrayNonUniformIndexing) \
  X (shaderStorageTexelBufferArrayNonUniformIndexing) \
  X (descriptorBindingUniformBufferUpdateAfterBind) \
  X (descriptorBindingSampledImageUpdateAfterBind) \
  X (descriptorBindingStorageImageUpdateAfterBind) \
  X (descriptorBindingStorageBufferUpdateAfterBind) \
  X (descriptorBindingUniformTexelBufferUpdateAfterBind) \
  X (descriptorBindingStorageTexelBufferUpdateAfterBind) \
  X (descriptorBindingUpdateUnusedWhilePending) \
  X (descriptorBindingPartiallyBound) \
  X (descriptorBindingVariableDescriptorCount) \
  X (runtimeDescriptorArray)

/* The descriptor-indexing members VkPhysicalDeviceVulkan12Features and
 * VkPhysicalDeviceDescriptorIndexingFeatures share. */
#define PSC_ANY_DESCRIPTOR_INDEXING(f) \
  ((f)->shaderInputAttachmentArrayDynamicIndexing || \
   (f)->shaderUniformTexelBufferArrayDynamicIndexing || \
   (f)->shaderStorageTexelBufferArrayDynamicIndexing || \
   (f)->shaderUniformBufferArrayNonUniformIndexing || \
   (f)->shaderSampledImageArrayNonUniformIndexing || \
   (f)->shaderStorageBufferArrayNonUniformIndexing || \
   (f)->shaderStorageImageArrayNonUniformIndexing || \
   (f)->shaderInputAttachmentArrayNonUniformIndexing || \
   (f)->shaderUniformTexelBufferArrayNonUniformIndexing || \
   (f)->shaderStorageTexelBufferArrayNonUniformIndexing || \
   (f)->descriptorBindingUniformBufferUpdateAfterBind || \
   (f)->descriptorBindingSampledImageUpdateAfterBind || \
   (f)->descriptorBindingStorageImageUpdateAfterBind || \
   (f)->descriptorBindingStorageBufferUpdateAfterBind || \
   (f)->descriptorBindingUniformTexelBufferUpdateAfterBind || \
   (f)->descriptorBindingStorageTexelBufferUpdateAfterBind || \
   (f)->descriptorBindingUpdateUnusedWhilePending || \
   (f)->descriptorBindingPartiallyBound || \
   (f)->descriptorBindingVariableDescriptorCount || \
   (f)->runtimeDescriptorArray)

/* VkPhysicalDeviceDriverProperties, when the device can report them: an
 * effective API version (self->api_version) of 1.2, or of 1.1
 * (vkGetPhysicalDeviceProperties2) with VK_KHR_driver_properties. Else
 * empty strings. */
static void
psc_device_describe_driver (PscDevice *self)
{
  const PscDeviceInfo *info = &self->info;
  PFN_vkGetPhysicalDeviceProperties2 get_properties2 = NULL;
  gboolean readable = FALSE;
  VkPhysicalDeviceDriverProperties driver = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
  };
  VkPhysicalDeviceProperties2 properties2 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
    .pNext = &driver,
  };

  if (self->api_version >= VK_API_VERSION_1_1)
    get_properties2 = (PFN_vkGetPhysicalDeviceProperties2)
      info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceProperties2");
  if (get_properties2 != NULL && self->api_version >= VK_API_VERSION_1_2)
    {
      readable = TRUE;
    }
  else if (get_properties2 != NULL)
    {
      PFN_vkEnumerateDeviceExtensionProperties enumerate = (PFN_vkEnumerateDeviceExtensionProperties)
        info->get_instance_proc_addr (info->instance, "vkEnumerateDeviceExtensionProperties");
      g_autofree VkExtensionProperties *exts = NULL;
      guint32 n = 0;

      if (enumerate != NULL && enumerate (info->physical_device, NULL, &n, NULL) == VK_SUCCESS && n > 0)
        {
          exts = g_new0 (VkExtensionProperties, n);
          if (enumerate (info->physical_device, NULL, &n, exts) >= VK_SUCCESS)
            readable = psc_has_extension (exts, n, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
        }
    }
  if (readable)
    get_properties2 (info->physical_device, &properties2);
  /* Zeroed above, so unreadable ones are empty strings. */
  self->driver_name = g_strndup (driver.driverName, sizeof driver.driverName);
  self->driver_info = g_strndup (driver.driverInfo, sizeof driver.driverInfo);
}

/* Reads the physical device's properties (self->info describes live Vulkan
 * objects). */
static gboolean
psc_device_describe (PscDevice  *self,
                     GError    **error)
{
  const PscDeviceInfo *info = &self->info;
  PFN_vkGetPhysicalDeviceProperties get_properties;
  VkPhysicalDeviceProperties properties;
  guint32 instance_api;

  get_properties = (PFN_vkGetPhysicalDeviceProperties)
    info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceProperties");
  if (get_properties == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("get_instance_proc_addr: cannot load %s for this instance"),
                   "vkGetPhysicalDeviceProperties");
      return FALSE;
    }

  memset (&properties, 0, sizeof properties);
  get_properties (info->physical_device, &properties);

  /* An apiVersion of 0 means Vulkan 1.0. */
  instance_api = info->api_version != 0 ? info->api_version : VK_API_VERSION_1_0;
  self->api_version = MIN (instance_api, properties.apiVersion);
  self->driver_version = properties.driverVersion;
  self->vendor_id = properties.vendorID;
  self->device_id = properties.deviceID;
  self->max_push_constants_size = properties.limits.maxPushConstantsSize;
  self->limits = properties.limits;
  memcpy (self->pipeline_cache_uuid, properties.pipelineCacheUUID, VK_UUID_SIZE);
  self->name = g_strndup (properties.deviceName, sizeof properties.deviceName);

  self->pipeline_cache_uuid_hex = g_malloc (2 * VK_UUID_SIZE + 1);
  for (guint i = 0; i < VK_UUID_SIZE; i++)
    g_snprintf (self->pipeline_cache_uuid_hex + 2 * i, 3, "%02x", properties.pipelineCacheUUID[i]);
  psc_device_describe_driver (self);

  /* Vulkan13Features may only be chained on a 1.3 device; the extension's
   * structure counts on its own. */
  self->dynamic_rendering =
    (self->has_features13 && self->features13.dynamicRendering &&
     self->api_version >= VK_API_VERSION_1_3) ||
    (self->has_features_dr && self->features_dr.dynamicRendering);
  /* The core asks for it (FAIL_ON_PIPELINE_COMPILE_REQUIRED) on 1.3 only. */
  self->cache_control =
    self->api_version >= VK_API_VERSION_1_3 &&
    ((self->has_features13 && self->features13.pipelineCreationCacheControl) ||
     (self->has_features_cc && self->features_cc.pipelineCreationCacheControl));
  /* Core in 1.3, no feature: what the core's creation paths check. */
  self->creation_feedback = self->api_version >= VK_API_VERSION_1_3;
  self->descriptor_indexing =
    (self->has_features12 && self->api_version >= VK_API_VERSION_1_2 &&
     (self->features12.descriptorIndexing || PSC_ANY_DESCRIPTOR_INDEXING (&self->features12))) ||
    (self->has_features_di && PSC_ANY_DESCRIPTOR_INDEXING (&self->features_di));

  return TRUE;
}

/* The "vulkan-info" property: checked and copied now, reported at
 * initialization. */
static void
psc_device_set_vulkan_info (PscDevice           *self,
                            const PscDeviceInfo *given)
{
  PscDeviceInfo info;

  if (given == NULL)
    return;
  self->has_given_info = TRUE;
  g_clear_error (&self->given_error);
  if (psc_versioned_copy (given, PSC_DEVICE_INFO_SIZE_0_1, sizeof (PscDeviceInfo),
                          "PscDeviceInfo", "info", &info, &self->given_error))
    psc_device_take_info (self, &info, &self->given_error);
}

/* A wrapping device: the copy made by psc_device_set_vulkan_info (). */
static gboolean
psc_device_open_wrapped (PscDevice  *self,
                         GError    **error)
{
  static const struct {
    const char *name;
    size_t offset;
  } required[] = {
    { "instance", offsetof (PscDeviceInfo, instance) },
    { "physical_device", offsetof (PscDeviceInfo, physical_device) },
    { "device", offsetof (PscDeviceInfo, device) },
    { "get_instance_proc_addr", offsetof (PscDeviceInfo, get_instance_proc_addr) },
  };

  if (self->given_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->given_error));
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    {
      gpointer value;

      /* Handles and function pointers: pointer-sized on every platform
       * libpsocache supports (64-bit non-dispatchable handles). */
      G_STATIC_ASSERT (sizeof (VkInstance) == sizeof (gpointer));
      memcpy (&value, (const char *) &self->info + required[i].offset, sizeof value);
      if (value == NULL)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("info->%s: a device to wrap needs it (it is NULL)"), required[i].name);
          return FALSE;
        }
    }
  if (self->flags != PSC_DEVICE_FLAGS_NONE || self->physical_device_index != 0)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("flags, physical-device-index: they apply to headless devices only"));
      return FALSE;
    }
  return psc_device_describe (self, error);
}

/**
 * psc_device_new_for_vulkan: (skip)
 * @info: the application's Vulkan objects, initialized with
 *   %PSC_DEVICE_INFO_INIT
 * @error: return location for a #GError
 *
 * Wraps Vulkan objects the application created. @info is copied and its
 * enabled-feature chain is snapshotted (Vulkan 1.1, 1.2, 1.3,
 * dynamic-rendering, pipeline-creation-cache-control and descriptor-indexing
 * feature structures are kept, other structures are ignored), so the
 * caller's structures need not outlive the call. This is
 * `g_initable_new (PSC_TYPE_DEVICE, NULL, error, "vulkan-info", info,
 * NULL)` with the argument checks of a C function.
 *
 * The device does not own the Vulkan objects: the application destroys them,
 * after every [class@Psc.Cache] on this device was finalized.
 *
 * Returns: (transfer full): a new device, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT when @info is inconsistent, or its size
 *   is not one this library can take: see [struct@Psc.DeviceInfo])
 *
 * Since: 0.1
 */
PscDevice *
psc_device_new_for_vulkan (const PscDeviceInfo *info,
                           GError             **error)
{
  PscDeviceInfo copy;

  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The size first: the members below are read only if the caller has
   * them. */
  if (!psc_versioned_copy (info, PSC_DEVICE_INFO_SIZE_0_1, sizeof (PscDeviceInfo),
                           "PscDeviceInfo", "info", &copy, error))
    return NULL;
  g_return_val_if_fail (copy.instance != VK_NULL_HANDLE, NULL);
  g_return_val_if_fail (copy.physical_device != VK_NULL_HANDLE, NULL);
  g_return_val_if_fail (copy.device != VK_NULL_HANDLE, NULL);
  g_return_val_if_fail (copy.get_instance_proc_addr != NULL, NULL);

  return g_initable_new (PSC_TYPE_DEVICE, NULL, error, "vulkan-info", &copy, NULL);
}

/* Headless ---------------------------------------------------------------- */

static VkBool32 VKAPI_PTR
psc_device_debug_messenger_cb (VkDebugUtilsMessageSeverityFlagBitsEXT      severity,
                               VkDebugUtilsMessageTypeFlagsEXT             types,
                               const VkDebugUtilsMessengerCallbackDataEXT *data,
                               void                                       *user_data)
{
  PscDevice *self = user_data;
  const char *message = data != NULL && data->pMessage != NULL ? data->pMessage : "";

  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    {
      g_atomic_int_inc (&self->validation_errors);
      if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)
        g_warning ("Vulkan validation error: %s", message);
      else
        g_warning ("Vulkan error: %s", message);
    }
  else
    {
      g_debug ("Vulkan validation: %s", message);
    }

  return VK_FALSE;
}

static void
psc_device_fill_messenger_info (PscDevice                          *self,
                                VkDebugUtilsMessengerCreateInfoEXT *ci)
{
  memset (ci, 0, sizeof *ci);
  ci->sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  ci->messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  ci->messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  ci->pfnUserCallback = psc_device_debug_messenger_cb;
  ci->pUserData = self;
}

static gboolean
psc_set_vk_error (GError    **error,
                  const char *what,
                  VkResult    result)
{
  g_set_error (error, PSC_ERROR, PSC_ERROR_VULKAN, _("%s failed: %s (%d)"),
               what, psc_vk_result_name (result), (int) result);
  return FALSE;
}

static gboolean
psc_has_extension (const VkExtensionProperties *exts,
                   guint32                      n,
                   const char                  *name)
{
  for (guint32 i = 0; i < n; i++)
    if (strcmp (exts[i].extensionName, name) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
psc_instance_extension_present (PFN_vkEnumerateInstanceExtensionProperties enumerate,
                                const char                                *layer,
                                const char                                *name)
{
  g_autofree VkExtensionProperties *exts = NULL;
  guint32 n = 0;

  if (enumerate (layer, &n, NULL) != VK_SUCCESS || n == 0)
    return FALSE;
  exts = g_new0 (VkExtensionProperties, n);
  if (enumerate (layer, &n, exts) < VK_SUCCESS)
    return FALSE;
  return psc_has_extension (exts, n, name);
}

static gboolean
psc_device_headless_instance (PscDevice      *self,
                              PscDeviceFlags  flags,
                              PscDeviceInfo  *info,
                              GError        **error)
{
  PFN_vkGetInstanceProcAddr gipa;
  PFN_vkEnumerateInstanceVersion enumerate_version;
  PFN_vkEnumerateInstanceExtensionProperties enumerate_extensions;
  PFN_vkEnumerateInstanceLayerProperties enumerate_layers;
  PFN_vkCreateInstance create_instance;
  PFN_vkCreateDebugUtilsMessengerEXT create_messenger;
  VkDebugUtilsMessengerCreateInfoEXT messenger_ci;
  const char *extensions[1];
  const char *layers[1];
  guint32 n_extensions = 0, n_layers = 0;
  guint32 loader_version = VK_API_VERSION_1_0;
  gboolean validation = (flags & PSC_DEVICE_FLAGS_VALIDATION) != 0;
  gboolean debug_utils;
  VkResult r;

  /* NODELETE: never unmap the loader under the application (it may hold
   * loader pointers of its own, and tools can still symbolize its frames). */
  self->loader = dlopen ("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (self->loader == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("Cannot load the Vulkan loader libvulkan.so.1: %s"), dlerror ());
      return FALSE;
    }
  gipa = (PFN_vkGetInstanceProcAddr) dlsym (self->loader, "vkGetInstanceProcAddr");
  if (gipa == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("The Vulkan loader libvulkan.so.1 has no vkGetInstanceProcAddr"));
      return FALSE;
    }

  enumerate_version = (PFN_vkEnumerateInstanceVersion) gipa (NULL, "vkEnumerateInstanceVersion");
  enumerate_extensions = (PFN_vkEnumerateInstanceExtensionProperties) gipa (NULL, "vkEnumerateInstanceExtensionProperties");
  enumerate_layers = (PFN_vkEnumerateInstanceLayerProperties) gipa (NULL, "vkEnumerateInstanceLayerProperties");
  create_instance = (PFN_vkCreateInstance) gipa (NULL, "vkCreateInstance");
  if (enumerate_extensions == NULL || enumerate_layers == NULL || create_instance == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("The Vulkan loader libvulkan.so.1 lacks global entry points"));
      return FALSE;
    }

  if (enumerate_version != NULL && enumerate_version (&loader_version) != VK_SUCCESS)
    loader_version = VK_API_VERSION_1_0;
  /* Ask for 1.3 when the loader has it, else what the loader has. */
  if (loader_version >= VK_API_VERSION_1_3)
    info->api_version = VK_API_VERSION_1_3;
  else
    info->api_version = VK_MAKE_API_VERSION (0, VK_API_VERSION_MAJOR (loader_version),
                                             VK_API_VERSION_MINOR (loader_version), 0);

  if (validation)
    {
      g_autofree VkLayerProperties *layer_props = NULL;
      guint32 n = 0;
      gboolean found = FALSE;

      if (enumerate_layers (&n, NULL) == VK_SUCCESS && n > 0)
        {
          layer_props = g_new0 (VkLayerProperties, n);
          if (enumerate_layers (&n, layer_props) >= VK_SUCCESS)
            for (guint32 i = 0; i < n && !found; i++)
              found = strcmp (layer_props[i].layerName, PSC_VALIDATION_LAYER) == 0;
        }
      if (!found)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                       _("Validation was requested but the layer %s is not installed"),
                       PSC_VALIDATION_LAYER);
          return FALSE;
        }
      layers[n_layers++] = PSC_VALIDATION_LAYER;
    }

  debug_utils =
    psc_instance_extension_present (enumerate_extensions, NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
    (validation && psc_instance_extension_present (enumerate_extensions, PSC_VALIDATION_LAYER,
                                                   VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
  if (validation && !debug_utils)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("Validation was requested but %s is not available"),
                   VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      return FALSE;
    }
  if (debug_utils)
    extensions[n_extensions++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

  {
    VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = g_get_prgname (),
      .pEngineName = "libpsocache",
      .engineVersion = VK_MAKE_API_VERSION (0, PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION),
      .apiVersion = info->api_version,
    };
    VkInstanceCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pApplicationInfo = &app,
      .enabledLayerCount = n_layers,
      .ppEnabledLayerNames = n_layers > 0 ? layers : NULL,
      .enabledExtensionCount = n_extensions,
      .ppEnabledExtensionNames = n_extensions > 0 ? extensions : NULL,
    };

    /* Also catch what the layer says during instance creation/destruction. */
    if (validation)
      {
        psc_device_fill_messenger_info (self, &messenger_ci);
        ci.pNext = &messenger_ci;
      }

    r = create_instance (&ci, NULL, &self->owned_instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_LAYER_NOT_PRESENT ||
        r == VK_ERROR_EXTENSION_NOT_PRESENT)
      {
        /* The loader found no driver (or lost a layer between enumeration
         * and creation): nothing to run on, rather than a failing driver. */
        self->owned_instance = VK_NULL_HANDLE;
        g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                     _("No Vulkan driver is available (vkCreateInstance: %s); "
                       "check VK_DRIVER_FILES / VK_ICD_FILENAMES"),
                     psc_vk_result_name (r));
        return FALSE;
      }
    if (r != VK_SUCCESS)
      {
        self->owned_instance = VK_NULL_HANDLE;
        return psc_set_vk_error (error, "vkCreateInstance", r);
      }
  }

  info->instance = self->owned_instance;
  info->get_instance_proc_addr = gipa;
  info->debug_utils = debug_utils;
  self->destroy_instance = (PFN_vkDestroyInstance) gipa (self->owned_instance, "vkDestroyInstance");

  if (validation)
    {
      create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
        gipa (self->owned_instance, "vkCreateDebugUtilsMessengerEXT");
      self->destroy_messenger = (PFN_vkDestroyDebugUtilsMessengerEXT)
        gipa (self->owned_instance, "vkDestroyDebugUtilsMessengerEXT");
      if (create_messenger == NULL || self->destroy_messenger == NULL)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                       _("Validation was requested but %s cannot be loaded"),
                       "vkCreateDebugUtilsMessengerEXT");
          return FALSE;
        }
      psc_device_fill_messenger_info (self, &messenger_ci);
      r = create_messenger (self->owned_instance, &messenger_ci, NULL, &self->messenger);
      if (r != VK_SUCCESS)
        {
          self->messenger = VK_NULL_HANDLE;
          return psc_set_vk_error (error, "vkCreateDebugUtilsMessengerEXT", r);
        }
    }

  return TRUE;
}

/* Descriptor indexing, as far as the device supports it (headless). */
static void
psc_copy_descriptor_indexing (VkPhysicalDeviceVulkan12Features       *to,
                              const VkPhysicalDeviceVulkan12Features *from)
{
#define PSC_COPY(m) to->m = from->m;
  PSC_COPY (descriptorIndexing)
  PSC_DI_FEATURES (PSC_COPY)
#undef PSC_COPY
}

/* The features a headless device enables, kept alive until the snapshot. */
typedef struct {
  VkPhysicalDeviceFeatures2 features;
  VkPhysicalDeviceVulkan12Features features12;
  VkPhysicalDeviceVulkan13Features features13;
  VkPhysicalDeviceDynamicRenderingFeatures features_dr;
} PscHeadlessFeatures;

static gboolean
psc_device_headless_device (PscDevice           *self,
                            PscDeviceFlags       flags,
                            PscDeviceInfo       *info,
                            PscHeadlessFeatures *enable,
                            GError             **error)
{
  VkInstance instance = info->instance;
  PFN_vkGetInstanceProcAddr gipa = info->get_instance_proc_addr;
  PFN_vkEnumeratePhysicalDevices enumerate_devices;
  PFN_vkGetPhysicalDeviceProperties get_properties;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties get_queue_families;
  PFN_vkGetPhysicalDeviceFeatures get_features;
  PFN_vkGetPhysicalDeviceFeatures2 get_features2;
  PFN_vkEnumerateDeviceExtensionProperties enumerate_device_extensions;
  PFN_vkCreateDevice create_device;
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkGetDeviceQueue get_queue;
  g_autofree VkPhysicalDevice *devices = NULL;
  g_autofree VkQueueFamilyProperties *families = NULL;
  g_autofree VkExtensionProperties *device_exts = NULL;
  VkPhysicalDeviceProperties properties;
  const char *extensions[1];
  guint32 n_extensions = 0;
  guint32 n_devices = 0, n_families = 0, n_device_exts = 0;
  guint32 index = self->physical_device_index, family = G_MAXUINT32, api;
  gboolean want_dr = (flags & PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING) == 0;
  gboolean want_di = (flags & PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING) == 0;
  VkResult r;

  enumerate_devices = (PFN_vkEnumeratePhysicalDevices) gipa (instance, "vkEnumeratePhysicalDevices");
  get_properties = (PFN_vkGetPhysicalDeviceProperties) gipa (instance, "vkGetPhysicalDeviceProperties");
  get_queue_families = (PFN_vkGetPhysicalDeviceQueueFamilyProperties)
    gipa (instance, "vkGetPhysicalDeviceQueueFamilyProperties");
  get_features = (PFN_vkGetPhysicalDeviceFeatures) gipa (instance, "vkGetPhysicalDeviceFeatures");
  get_features2 = (PFN_vkGetPhysicalDeviceFeatures2) gipa (instance, "vkGetPhysicalDeviceFeatures2");
  enumerate_device_extensions = (PFN_vkEnumerateDeviceExtensionProperties)
    gipa (instance, "vkEnumerateDeviceExtensionProperties");
  create_device = (PFN_vkCreateDevice) gipa (instance, "vkCreateDevice");
  gdpa = (PFN_vkGetDeviceProcAddr) gipa (instance, "vkGetDeviceProcAddr");
  if (enumerate_devices == NULL || get_properties == NULL || get_queue_families == NULL ||
      get_features == NULL || enumerate_device_extensions == NULL || create_device == NULL ||
      gdpa == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("The Vulkan loader lacks instance entry points"));
      return FALSE;
    }

  r = enumerate_devices (instance, &n_devices, NULL);
  if (r != VK_SUCCESS)
    return psc_set_vk_error (error, "vkEnumeratePhysicalDevices", r);
  if (n_devices == 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("No Vulkan physical device found (check VK_DRIVER_FILES / VK_ICD_FILENAMES)"));
      return FALSE;
    }
  devices = g_new0 (VkPhysicalDevice, n_devices);
  r = enumerate_devices (instance, &n_devices, devices);
  if (r < VK_SUCCESS)
    return psc_set_vk_error (error, "vkEnumeratePhysicalDevices", r);

  if (index >= n_devices)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("physical-device-index: %u does not name one of the %u Vulkan devices"),
                   index, n_devices);
      return FALSE;
    }
  info->physical_device = devices[index];

  memset (&properties, 0, sizeof properties);
  get_properties (info->physical_device, &properties);
  api = MIN (info->api_version, properties.apiVersion);

  get_queue_families (info->physical_device, &n_families, NULL);
  families = g_new0 (VkQueueFamilyProperties, MAX (n_families, 1));
  get_queue_families (info->physical_device, &n_families, families);
  for (guint32 i = 0; i < n_families && family == G_MAXUINT32; i++)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT && families[i].queueCount > 0)
      family = i;
  if (family == G_MAXUINT32)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("Vulkan device %u (%s) has no graphics queue"),
                   index, properties.deviceName);
      return FALSE;
    }
  info->queue_family_index = family;

  if (enumerate_device_extensions (info->physical_device, NULL, &n_device_exts, NULL) == VK_SUCCESS &&
      n_device_exts > 0)
    {
      device_exts = g_new0 (VkExtensionProperties, n_device_exts);
      if (enumerate_device_extensions (info->physical_device, NULL, &n_device_exts, device_exts) < VK_SUCCESS)
        n_device_exts = 0;
    }

  /* Every supported core feature except robustBufferAccess (it only costs
   * time), so tests and tools can exercise every key field. */
  memset (enable, 0, sizeof *enable);
  enable->features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  if (api >= VK_API_VERSION_1_3 && get_features2 != NULL)
    {
      VkPhysicalDeviceVulkan13Features s13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
      VkPhysicalDeviceVulkan12Features s12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &s13 };
      VkPhysicalDeviceFeatures2 s = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &s12 };

      get_features2 (info->physical_device, &s);
      enable->features.features = s.features;
      enable->features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
      enable->features12.timelineSemaphore = s12.timelineSemaphore;
      if (want_di)
        psc_copy_descriptor_indexing (&enable->features12, &s12);
      enable->features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
      enable->features13.synchronization2 = s13.synchronization2;
      enable->features13.dynamicRendering = want_dr && s13.dynamicRendering;
      /* The warm probe (psc_cache_verify_warm) needs it. */
      enable->features13.pipelineCreationCacheControl = s13.pipelineCreationCacheControl;
      enable->features.pNext = &enable->features12;
      enable->features12.pNext = &enable->features13;
    }
  else if (api >= VK_API_VERSION_1_2 && get_features2 != NULL)
    {
      VkPhysicalDeviceDynamicRenderingFeatures sdr = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES };
      VkPhysicalDeviceVulkan12Features s12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
      VkPhysicalDeviceFeatures2 s = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &s12 };
      gboolean has_ext = psc_has_extension (device_exts, n_device_exts, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);

      if (has_ext)
        s12.pNext = &sdr;
      get_features2 (info->physical_device, &s);
      enable->features.features = s.features;
      enable->features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
      enable->features12.timelineSemaphore = s12.timelineSemaphore;
      if (want_di)
        psc_copy_descriptor_indexing (&enable->features12, &s12);
      enable->features.pNext = &enable->features12;
      if (want_dr && has_ext && sdr.dynamicRendering)
        {
          enable->features_dr.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
          enable->features_dr.dynamicRendering = VK_TRUE;
          enable->features12.pNext = &enable->features_dr;
          extensions[n_extensions++] = VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
        }
    }
  else
    {
      get_features (info->physical_device, &enable->features.features);
    }
  enable->features.features.robustBufferAccess = VK_FALSE;

  {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_ci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue_ci,
      .enabledExtensionCount = n_extensions,
      .ppEnabledExtensionNames = n_extensions > 0 ? extensions : NULL,
    };

    /* VkPhysicalDeviceFeatures2 in pNext needs 1.1 (or the KHR extension);
     * on 1.0 pass the core features the old way. */
    if (api >= VK_API_VERSION_1_1 && get_features2 != NULL)
      ci.pNext = &enable->features;
    else
      ci.pEnabledFeatures = &enable->features.features;

    r = create_device (info->physical_device, &ci, NULL, &self->owned_device);
    if (r != VK_SUCCESS)
      {
        self->owned_device = VK_NULL_HANDLE;
        return psc_set_vk_error (error, "vkCreateDevice", r);
      }
  }

  info->device = self->owned_device;
  info->enabled_features = &enable->features;
  self->destroy_device = (PFN_vkDestroyDevice) gdpa (self->owned_device, "vkDestroyDevice");
  get_queue = (PFN_vkGetDeviceQueue) gdpa (self->owned_device, "vkGetDeviceQueue");
  if (self->destroy_device == NULL || get_queue == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                   _("The Vulkan driver lacks device entry points"));
      return FALSE;
    }
  get_queue (self->owned_device, family, 0, &info->queue);

  return TRUE;
}

/**
 * psc_device_new_headless:
 * @flags: flags
 * @error: return location for a #GError
 *
 * Creates a device of its own: loads the system Vulkan loader
 * (`libvulkan.so.1`) at run time, creates an instance (Vulkan 1.3 when the
 * loader has it, with `VK_EXT_debug_utils` when available), picks a physical
 * device and creates a `VkDevice` with one graphics queue. The object owns
 * them and destroys them when it is finalized.
 *
 * The first physical device is used ([property@Psc.Device:physical-device-index]
 * chooses another through g_initable_new()). The usual loader variables
 * (`VK_DRIVER_FILES`, `VK_INSTANCE_LAYERS`, ...) apply; for example
 * `VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json` selects
 * Mesa's lavapipe.
 *
 * The device enables every supported Vulkan 1.0 feature except
 * `robustBufferAccess`; `timelineSemaphore`, `synchronization2` and
 * `pipelineCreationCacheControl` when supported; on Vulkan 1.2 or later,
 * `descriptorIndexing` and every supported descriptor-indexing feature of
 * `VkPhysicalDeviceVulkan12Features` (since 0.3), unless @flags contains
 * %PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING; and dynamic rendering
 * when supported, unless @flags contains
 * %PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING.
 *
 * With %PSC_DEVICE_FLAGS_VALIDATION the `VK_LAYER_KHRONOS_validation` layer
 * is enabled together with a debug-utils messenger that lives as long as the
 * device: error-severity messages are logged with g_warning() and counted in
 * [property@Psc.Device:validation-error-count]. A missing layer is an error.
 *
 * [method@Psc.Device.get_info] describes the created objects (instance,
 * device, queue, `vkGetInstanceProcAddr`) for tools and tests.
 *
 * Returns: (transfer full): a new device, or %NULL with @error set:
 *   %PSC_ERROR_NO_DEVICE when no loader, device, graphics queue or requested
 *   layer is found, %PSC_ERROR_VULKAN when a Vulkan call fails
 *
 * Since: 0.1
 */
PscDevice *
psc_device_new_headless (PscDeviceFlags   flags,
                         GError         **error)
{
  g_return_val_if_fail ((flags & ~PSC_ALL_DEVICE_FLAGS) == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_initable_new (PSC_TYPE_DEVICE, NULL, error, "headless", TRUE, "flags", flags, NULL);
}

/* A headless device: loader, instance, device, then the description. */
static gboolean
psc_device_open_headless (PscDevice  *self,
                          GError    **error)
{
  PscHeadlessFeatures enable;
  PscDeviceInfo info = PSC_DEVICE_INFO_INIT;

  if (self->has_given_info)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("vulkan-info: a headless device creates its own Vulkan objects; "
                             "set \"headless\" or \"vulkan-info\", not both"));
      return FALSE;
    }
  return psc_device_headless_instance (self, self->flags, &info, error) &&
         psc_device_headless_device (self, self->flags, &info, &enable, error) &&
         psc_device_take_info (self, &info, error) &&
         psc_device_describe (self, error);
}

static gboolean
psc_device_open (PscDevice  *self,
                 GError    **error)
{
  if (self->headless)
    return psc_device_open_headless (self, error);
  if (self->has_given_info)
    return psc_device_open_wrapped (self, error);
  g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("vulkan-info: a PscDevice wraps the application's Vulkan objects "
                         "(\"vulkan-info\", psc_device_new_for_vulkan ()) or creates its own "
                         "(\"headless\", psc_device_new_headless ()); neither was given"));
  return FALSE;
}

/* GInitable: runs once; later calls give the first call's result. */
static gboolean
psc_device_initable_init (GInitable     *initable,
                          GCancellable  *cancellable,
                          GError       **error)
{
  PscDevice *self = PSC_DEVICE (initable);

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->init_done)
    {
      self->init_done = TRUE;
      self->ready = psc_device_open (self, &self->init_error);
    }
  if (self->init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->init_error));
      return FALSE;
    }
  return TRUE;
}

static void
psc_device_initable_iface_init (GInitableIface *iface)
{
  iface->init = psc_device_initable_init;
}

gboolean
psc_device_is_ready (PscDevice *self)
{
  return self->ready;
}

/**
 * psc_device_get_name:
 * @self: a device
 *
 * Returns the physical device's name.
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
psc_device_get_name (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), NULL);
  return self->name;
}

/**
 * psc_device_get_driver_version:
 * @self: a device
 *
 * Returns the driver version, in the driver's own encoding.
 *
 * Returns: the driver version
 *
 * Since: 0.1
 */
guint32
psc_device_get_driver_version (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return self->driver_version;
}

/**
 * psc_device_get_api_version:
 * @self: a device
 *
 * Returns the Vulkan API version caches may use: the lower of the instance's
 * and the physical device's API version.
 *
 * Returns: the API version, encoded like `VK_MAKE_API_VERSION`
 *
 * Since: 0.1
 */
guint32
psc_device_get_api_version (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return self->api_version;
}

/**
 * psc_device_get_dynamic_rendering:
 * @self: a device
 *
 * Returns whether dynamic rendering was *enabled* on the `VkDevice`; see
 * [property@Psc.Device:dynamic-rendering].
 *
 * Returns: %TRUE if caches on this device may use the dynamic-rendering
 *   backend
 *
 * Since: 0.1
 */
gboolean
psc_device_get_dynamic_rendering (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  return self->dynamic_rendering;
}

/**
 * psc_device_get_headless:
 * @self: a device
 *
 * Returns whether the device was created by [ctor@Psc.Device.new_headless]
 * and owns its Vulkan objects.
 *
 * Returns: %TRUE for a headless device
 *
 * Since: 0.1
 */
gboolean
psc_device_get_headless (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  return self->headless;
}

/**
 * psc_device_get_validation_error_count:
 * @self: a device
 *
 * Returns how many error-severity validation messages the device's messenger
 * received so far (always 0 unless the device was created headless with
 * %PSC_DEVICE_FLAGS_VALIDATION). May be called from any thread.
 *
 * Returns: the number of validation errors
 *
 * Since: 0.1
 */
guint
psc_device_get_validation_error_count (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return (guint) g_atomic_int_get (&self->validation_errors);
}

/**
 * psc_device_get_info: (skip)
 * @self: a device
 *
 * Returns the Vulkan objects the device works on. For a headless device
 * these are the objects it created, including its graphics queue. The
 * `enabled_features` member points to the device's snapshot of the enabled
 * features (only the structures it keeps).
 *
 * Returns: (transfer none): the device's description, valid as long as
 *   @self
 *
 * Since: 0.1
 */
const PscDeviceInfo *
psc_device_get_info (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), NULL);
  return &self->info;
}

/**
 * psc_device_get_vendor_id:
 * @self: a device
 *
 * Returns [property@Psc.Device:vendor-id]. Any thread.
 *
 * Returns: the vendor id (`VkPhysicalDeviceProperties.vendorID`)
 *
 * Since: 0.3
 */
guint32
psc_device_get_vendor_id (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return self->vendor_id;
}

/**
 * psc_device_get_device_id:
 * @self: a device
 *
 * Returns [property@Psc.Device:device-id]. Any thread.
 *
 * Returns: the device id (`VkPhysicalDeviceProperties.deviceID`)
 *
 * Since: 0.3
 */
guint32
psc_device_get_device_id (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return self->device_id;
}

/**
 * psc_device_get_driver_name:
 * @self: a device
 *
 * Returns [property@Psc.Device:driver-name]. Any thread.
 *
 * Returns: (transfer none) (nullable): the driver's name, the empty string
 *   when the device cannot report it, %NULL on a device that is not
 *   initialized
 *
 * Since: 0.3
 */
const char *
psc_device_get_driver_name (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), NULL);
  return self->driver_name;
}

/**
 * psc_device_get_driver_info:
 * @self: a device
 *
 * Returns [property@Psc.Device:driver-info]. Any thread.
 *
 * Returns: (transfer none) (nullable): the driver's description of itself,
 *   the empty string when the device cannot report it, %NULL on a device
 *   that is not initialized
 *
 * Since: 0.3
 */
const char *
psc_device_get_driver_info (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), NULL);
  return self->driver_info;
}

/**
 * psc_device_get_pipeline_cache_uuid:
 * @self: a device
 *
 * Returns [property@Psc.Device:pipeline-cache-uuid]. Any thread.
 *
 * Returns: (transfer none) (nullable): 32 lower-case hexadecimal digits, or
 *   %NULL on a device that is not initialized
 *
 * Since: 0.3
 */
const char *
psc_device_get_pipeline_cache_uuid (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), NULL);
  return self->pipeline_cache_uuid_hex;
}

/**
 * psc_device_get_pipeline_creation_cache_control:
 * @self: a device
 *
 * Returns [property@Psc.Device:pipeline-creation-cache-control]. Any
 * thread.
 *
 * Returns: %TRUE if `pipelineCreationCacheControl` was enabled on a Vulkan
 *   1.3 device
 *
 * Since: 0.3
 */
gboolean
psc_device_get_pipeline_creation_cache_control (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  return self->cache_control;
}

/**
 * psc_device_get_creation_feedback:
 * @self: a device
 *
 * Returns [property@Psc.Device:creation-feedback]. Any thread.
 *
 * Returns: %TRUE if caches on this device use pipeline-creation feedback
 *
 * Since: 0.3
 */
gboolean
psc_device_get_creation_feedback (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  return self->creation_feedback;
}

/**
 * psc_device_get_descriptor_indexing:
 * @self: a device
 *
 * Returns [property@Psc.Device:descriptor-indexing]. Any thread.
 *
 * Returns: %TRUE if a descriptor-indexing feature was enabled
 *
 * Since: 0.3
 */
gboolean
psc_device_get_descriptor_indexing (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  return self->descriptor_indexing;
}

/**
 * psc_device_get_max_push_constants_size:
 * @self: a device
 *
 * Returns [property@Psc.Device:max-push-constants-size]. Any thread.
 *
 * Returns: the device's `VkPhysicalDeviceLimits.maxPushConstantsSize`, in
 *   bytes
 *
 * Since: 0.3
 */
guint32
psc_device_get_max_push_constants_size (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return self->max_push_constants_size;
}

/**
 * psc_device_get_vk_device:
 * @self: a device
 *
 * Gets the `VkDevice` as an integer, for bindings that call Vulkan
 * themselves (ctypes, a Vulkan binding) on the device the cache uses:
 * to create the objects a resource wrapper such as [struct@Psc.Buffer]
 * wraps. C code reads [struct@Psc.DeviceInfo]'s `device` through
 * [method@Psc.Device.get_info]. Any thread.
 *
 * Returns: the `VkDevice` handle
 *
 * Since: 0.3
 */
guint64
psc_device_get_vk_device (PscDevice *self)
{
  g_return_val_if_fail (PSC_IS_DEVICE (self), 0);
  return (guint64) (guintptr) psc_device_get_info (self)->device;
}

void
psc_device_fill_core_config (PscDevice     *self,
                             PscCoreConfig *cfg)
{
  cfg->instance = self->info.instance;
  cfg->physical_device = self->info.physical_device;
  cfg->device = self->info.device;
  cfg->get_instance_proc_addr = self->info.get_instance_proc_addr;
  cfg->api_version = self->api_version;
  cfg->debug_utils = self->info.debug_utils != FALSE;
  cfg->dynamic_rendering_enabled = self->dynamic_rendering != FALSE;
  cfg->creation_cache_control_enabled = self->cache_control != FALSE;
  cfg->allocator = self->info.allocator;
}

void
psc_device_get_identity (PscDevice         *self,
                         PscDeviceIdentity *id)
{
  id->vendor_id = self->vendor_id;
  id->device_id = self->device_id;
  id->driver_version = self->driver_version;
  memcpy (id->uuid, self->pipeline_cache_uuid, VK_UUID_SIZE);
}

/* The features psc_device_get_enabled_feature() knows, by name. */
#define PSC_DI_MEMBER(m) { #m, offsetof (VkPhysicalDeviceDescriptorIndexingFeatures, m) },
static const struct { const char *name; gsize offset; } psc_di_members[] = {
  PSC_DI_FEATURES (PSC_DI_MEMBER)
};
#undef PSC_DI_MEMBER

/* The descriptor-indexing members of a Vulkan 1.2 feature structure. */
static void
psc_descriptor_indexing_from_12 (VkPhysicalDeviceDescriptorIndexingFeatures *to,
                                 const VkPhysicalDeviceVulkan12Features     *from)
{
#define PSC_COPY(m) to->m = from->m;
  PSC_DI_FEATURES (PSC_COPY)
#undef PSC_COPY
}

/* The enabled descriptor-indexing features: the Vulkan 1.2 structure's (on
 * a 1.2 device) and the extension structure's, either one enabling. */
void
psc_device_get_enabled_descriptor_indexing (PscDevice                                 *self,
                                            VkPhysicalDeviceDescriptorIndexingFeatures *out)
{
  VkPhysicalDeviceDescriptorIndexingFeatures from12 = { 0 };

  memset (out, 0, sizeof *out);
  out->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES;
  if (self->has_features12 && self->api_version >= VK_API_VERSION_1_2)
    psc_descriptor_indexing_from_12 (&from12, &self->features12);
  for (guint i = 0; i < G_N_ELEMENTS (psc_di_members); i++)
    {
      gsize off = psc_di_members[i].offset;
      VkBool32 a = *(const VkBool32 *) ((const guint8 *) &from12 + off);
      VkBool32 b = self->has_features_di ? *(const VkBool32 *) ((const guint8 *) &self->features_di + off)
                                         : VK_FALSE;

      *(VkBool32 *) ((guint8 *) out + off) = (a || b) ? VK_TRUE : VK_FALSE;
    }
}

/**
 * psc_device_get_enabled_feature:
 * @self: a device
 * @name: a member of `VkPhysicalDeviceDescriptorIndexingFeatures` (also
 *   in `VkPhysicalDeviceVulkan12Features`), such as
 *   `"descriptorBindingPartiallyBound"`
 *
 * Whether the device was created with the descriptor-indexing feature
 * @name enabled: the enabled-feature snapshot (see
 * [struct@Psc.DeviceInfo]), never what the physical device supports. The
 * managed descriptor layer ([struct@Psc.DescriptorLayout]) checks binding
 * flags and descriptor types against the same snapshot. Any thread.
 *
 * An unknown @name is a programming error (a critical; %FALSE).
 *
 * Returns: %TRUE if the feature was enabled
 *
 * Since: 0.3
 */
gboolean
psc_device_get_enabled_feature (PscDevice  *self,
                                const char *name)
{
  VkPhysicalDeviceDescriptorIndexingFeatures f;

  g_return_val_if_fail (PSC_IS_DEVICE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  psc_device_get_enabled_descriptor_indexing (self, &f);
  for (guint i = 0; i < G_N_ELEMENTS (psc_di_members); i++)
    if (strcmp (psc_di_members[i].name, name) == 0)
      return *(const VkBool32 *) ((const guint8 *) &f + psc_di_members[i].offset) != VK_FALSE;
  g_critical ("%s: '%s' is not a descriptor-indexing feature", G_STRFUNC, name);
  return FALSE;
}

/* A device-level entry point, through the application's
 * vkGetInstanceProcAddr -> vkGetDeviceProcAddr (so layers see the call);
 * NULL if the device cannot give it. */
PFN_vkVoidFunction
psc_device_get_device_proc (PscDevice  *self,
                            const char *name)
{
  const PscDeviceInfo *info = &self->info;
  PFN_vkGetDeviceProcAddr gdpa;

  if (info->get_instance_proc_addr == NULL || info->device == VK_NULL_HANDLE)
    return NULL;
  gdpa = (PFN_vkGetDeviceProcAddr) info->get_instance_proc_addr (info->instance, "vkGetDeviceProcAddr");
  return gdpa != NULL ? gdpa (info->device, name) : NULL;
}

/* The physical device's limits (zero before initialization). */
const VkPhysicalDeviceLimits *
psc_device_get_limits (PscDevice *self)
{
  return &self->limits;
}
