#!/usr/bin/python3
# vk_resources.py: a test helper that makes real Vulkan objects (buffers
# with bound memory, images, image and buffer views, samplers, a render
# pass) on an existing VkDevice given as an int handle, through ctypes and
# the system loader libvulkan.so.1 only. Run as a script it tests itself
# on a device of its own under the validation layer.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_char_p, c_float,
                    c_int, c_int32, c_uint32, c_uint64, c_void_p)

# --- Constants the tests use (values from vulkan_core.h) -------------------

VK_WHOLE_SIZE = 0xFFFFFFFFFFFFFFFF

VK_DESCRIPTOR_TYPE_SAMPLER = 0
VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER = 1
VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE = 2
VK_DESCRIPTOR_TYPE_STORAGE_IMAGE = 3
VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER = 4
VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER = 5
VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER = 6
VK_DESCRIPTOR_TYPE_STORAGE_BUFFER = 7
VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC = 8
VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC = 9
VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT = 10

VK_IMAGE_LAYOUT_UNDEFINED = 0
VK_IMAGE_LAYOUT_GENERAL = 1
VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL = 2
VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL = 5

VK_SHADER_STAGE_VERTEX_BIT = 0x01
VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT = 0x02
VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT = 0x04
VK_SHADER_STAGE_GEOMETRY_BIT = 0x08
VK_SHADER_STAGE_FRAGMENT_BIT = 0x10
VK_SHADER_STAGE_COMPUTE_BIT = 0x20
VK_SHADER_STAGE_ALL_GRAPHICS = 0x1F
VK_SHADER_STAGE_ALL = 0x7FFFFFFF

VK_FORMAT_R8G8B8A8_UNORM = 37
VK_FORMAT_B8G8R8A8_UNORM = 44
VK_FORMAT_R32_SFLOAT = 100
VK_FORMAT_R32G32B32A32_SFLOAT = 109

VK_IMAGE_ASPECT_COLOR_BIT = 0x1

VK_IMAGE_VIEW_TYPE_2D = 1
VK_IMAGE_VIEW_TYPE_2D_ARRAY = 5

VK_BUFFER_USAGE_TRANSFER_SRC_BIT = 0x01
VK_BUFFER_USAGE_TRANSFER_DST_BIT = 0x02
VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT = 0x04
VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT = 0x08
VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT = 0x10
VK_BUFFER_USAGE_STORAGE_BUFFER_BIT = 0x20

VK_IMAGE_USAGE_TRANSFER_DST_BIT = 0x02
VK_IMAGE_USAGE_SAMPLED_BIT = 0x04
VK_IMAGE_USAGE_STORAGE_BIT = 0x08
VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT = 0x10
VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT = 0x80

DEFAULT_BUFFER_USAGE = (VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                        | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                        | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                        | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                        | VK_BUFFER_USAGE_TRANSFER_DST_BIT)
DEFAULT_IMAGE_USAGE = (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT
                       | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)

VK_SUCCESS = 0

# --- Structures (layouts as in vulkan_core.h) ------------------------------

VkDeviceSize = c_uint64
VkFlags = c_uint32
VkEnum = c_int          # C enums: VkFormat, VkImageLayout, ...
VkHandle = c_uint64     # non-dispatchable handles


class _Info(Structure):
    """A create-info structure: sType is set from the class's _stype."""
    _stype = None

    def __init__(self, **fields):
        super().__init__(**fields)
        self.sType = self._stype


class VkMemoryRequirements(Structure):
    _fields_ = [('size', VkDeviceSize), ('alignment', VkDeviceSize),
                ('memoryTypeBits', c_uint32)]


class VkMemoryAllocateInfo(_Info):
    _stype = 5
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                ('allocationSize', VkDeviceSize),
                ('memoryTypeIndex', c_uint32)]


class VkBufferCreateInfo(_Info):
    _stype = 12
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('size', VkDeviceSize), ('usage', VkFlags),
                ('sharingMode', VkEnum), ('queueFamilyIndexCount', c_uint32),
                ('pQueueFamilyIndices', POINTER(c_uint32))]


class VkBufferViewCreateInfo(_Info):
    _stype = 13
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('buffer', VkHandle), ('format', VkEnum),
                ('offset', VkDeviceSize), ('range', VkDeviceSize)]


class VkExtent3D(Structure):
    _fields_ = [('width', c_uint32), ('height', c_uint32),
                ('depth', c_uint32)]


class VkImageCreateInfo(_Info):
    _stype = 14
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('imageType', VkEnum), ('format', VkEnum),
                ('extent', VkExtent3D), ('mipLevels', c_uint32),
                ('arrayLayers', c_uint32), ('samples', VkEnum),
                ('tiling', VkEnum), ('usage', VkFlags),
                ('sharingMode', VkEnum), ('queueFamilyIndexCount', c_uint32),
                ('pQueueFamilyIndices', POINTER(c_uint32)),
                ('initialLayout', VkEnum)]


class VkComponentMapping(Structure):
    _fields_ = [('r', VkEnum), ('g', VkEnum), ('b', VkEnum), ('a', VkEnum)]


class VkImageSubresourceRange(Structure):
    _fields_ = [('aspectMask', VkFlags), ('baseMipLevel', c_uint32),
                ('levelCount', c_uint32), ('baseArrayLayer', c_uint32),
                ('layerCount', c_uint32)]


class VkImageViewCreateInfo(_Info):
    _stype = 15
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('image', VkHandle), ('viewType', VkEnum), ('format', VkEnum),
                ('components', VkComponentMapping),
                ('subresourceRange', VkImageSubresourceRange)]


class VkSamplerCreateInfo(_Info):
    _stype = 31
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('magFilter', VkEnum), ('minFilter', VkEnum),
                ('mipmapMode', VkEnum), ('addressModeU', VkEnum),
                ('addressModeV', VkEnum), ('addressModeW', VkEnum),
                ('mipLodBias', c_float), ('anisotropyEnable', c_uint32),
                ('maxAnisotropy', c_float), ('compareEnable', c_uint32),
                ('compareOp', VkEnum), ('minLod', c_float),
                ('maxLod', c_float), ('borderColor', VkEnum),
                ('unnormalizedCoordinates', c_uint32)]


class VkAttachmentDescription(Structure):
    _fields_ = [('flags', VkFlags), ('format', VkEnum), ('samples', VkEnum),
                ('loadOp', VkEnum), ('storeOp', VkEnum),
                ('stencilLoadOp', VkEnum), ('stencilStoreOp', VkEnum),
                ('initialLayout', VkEnum), ('finalLayout', VkEnum)]


class VkAttachmentReference(Structure):
    _fields_ = [('attachment', c_uint32), ('layout', VkEnum)]


class VkSubpassDescription(Structure):
    _fields_ = [('flags', VkFlags), ('pipelineBindPoint', VkEnum),
                ('inputAttachmentCount', c_uint32),
                ('pInputAttachments', POINTER(VkAttachmentReference)),
                ('colorAttachmentCount', c_uint32),
                ('pColorAttachments', POINTER(VkAttachmentReference)),
                ('pResolveAttachments', POINTER(VkAttachmentReference)),
                ('pDepthStencilAttachment', POINTER(VkAttachmentReference)),
                ('preserveAttachmentCount', c_uint32),
                ('pPreserveAttachments', POINTER(c_uint32))]


class VkRenderPassCreateInfo(_Info):
    _stype = 38
    _fields_ = [('sType', VkEnum), ('pNext', c_void_p), ('flags', VkFlags),
                ('attachmentCount', c_uint32),
                ('pAttachments', POINTER(VkAttachmentDescription)),
                ('subpassCount', c_uint32),
                ('pSubpasses', POINTER(VkSubpassDescription)),
                ('dependencyCount', c_uint32), ('pDependencies', c_void_p)]


# --- Loader and device functions -------------------------------------------

_vk = ctypes.CDLL('libvulkan.so.1')
_vk.vkGetDeviceProcAddr.restype = c_void_p
_vk.vkGetDeviceProcAddr.argtypes = [c_void_p, c_char_p]

_P = c_void_p           # pointers: VkDevice, create infos, allocator
_H = POINTER(VkHandle)  # out-parameter for a handle
# name: (result type or None, argument types after the VkDevice)
_DEVICE_FUNCS = {
    'vkCreateBuffer': (c_int32, [_P, _P, _H]),
    'vkDestroyBuffer': (None, [VkHandle, _P]),
    'vkCreateImage': (c_int32, [_P, _P, _H]),
    'vkDestroyImage': (None, [VkHandle, _P]),
    'vkCreateImageView': (c_int32, [_P, _P, _H]),
    'vkDestroyImageView': (None, [VkHandle, _P]),
    'vkCreateBufferView': (c_int32, [_P, _P, _H]),
    'vkDestroyBufferView': (None, [VkHandle, _P]),
    'vkCreateSampler': (c_int32, [_P, _P, _H]),
    'vkDestroySampler': (None, [VkHandle, _P]),
    'vkCreateRenderPass': (c_int32, [_P, _P, _H]),
    'vkDestroyRenderPass': (None, [VkHandle, _P]),
    'vkGetBufferMemoryRequirements': (None, [VkHandle, _P]),
    'vkGetImageMemoryRequirements': (None, [VkHandle, _P]),
    'vkAllocateMemory': (c_int32, [_P, _P, _H]),
    'vkFreeMemory': (None, [VkHandle, _P]),
    'vkBindBufferMemory': (c_int32, [VkHandle, VkHandle, VkDeviceSize]),
    'vkBindImageMemory': (c_int32, [VkHandle, VkHandle, VkDeviceSize]),
}

# What each kind of object is destroyed with.
_DESTROY = {'buffer': 'vkDestroyBuffer', 'image': 'vkDestroyImage',
            'image_view': 'vkDestroyImageView',
            'buffer_view': 'vkDestroyBufferView',
            'sampler': 'vkDestroySampler',
            'render_pass': 'vkDestroyRenderPass'}


def _check(name, result):
    if result != VK_SUCCESS:
        raise RuntimeError(f'{name} failed: VkResult {result}')


class Resources:
    """Owns the Vulkan objects it made on `device` (an int VkDevice
    handle); close() destroys them all in reverse order."""

    def __init__(self, device_handle: int):
        self._device = c_void_p(device_handle)
        self._fn = {}
        for name, (restype, argtypes) in _DEVICE_FUNCS.items():
            address = _vk.vkGetDeviceProcAddr(self._device, name.encode())
            if not address:
                raise RuntimeError(f'vkGetDeviceProcAddr: no {name}')
            proto = CFUNCTYPE(restype, c_void_p, *argtypes)
            self._fn[name] = proto(address)
        self._objects = []  # (kind, handle, memory handle or 0), in order

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, name, *args):
        result = self._fn[name](self._device, *args)
        if result is not None:
            _check(name, result)

    def _create(self, kind, name, info):
        handle = VkHandle()
        self._call(name, byref(info), None, byref(handle))
        self._objects.append((kind, handle.value, 0))
        return handle.value

    def _bind_memory(self, kind, handle):
        """Allocates memory for the object made last and binds it."""
        reqs = VkMemoryRequirements()
        what = 'Buffer' if kind == 'buffer' else 'Image'
        self._call(f'vkGet{what}MemoryRequirements', handle, byref(reqs))
        bits = reqs.memoryTypeBits
        if not bits:
            raise RuntimeError(f'vkGet{what}MemoryRequirements: no type')
        lowest_type = (bits & -bits).bit_length() - 1
        info = VkMemoryAllocateInfo(allocationSize=reqs.size,
                                    memoryTypeIndex=lowest_type)
        memory = VkHandle()
        self._call('vkAllocateMemory', byref(info), None, byref(memory))
        self._objects[-1] = (kind, handle, memory.value)
        self._call(f'vkBind{what}Memory', handle, memory.value, 0)

    def buffer(self, size: int, usage: int = DEFAULT_BUFFER_USAGE) -> int:
        """A VkBuffer of `size` bytes with its memory bound."""
        info = VkBufferCreateInfo(size=size, usage=usage)
        handle = self._create('buffer', 'vkCreateBuffer', info)
        self._bind_memory('buffer', handle)
        return handle

    def image(self, width: int = 8, height: int = 8,
              fmt: int = VK_FORMAT_R8G8B8A8_UNORM,
              usage: int = DEFAULT_IMAGE_USAGE, mip_levels: int = 1,
              array_layers: int = 1) -> int:
        """A 2D VkImage, optimal tiling, one sample, memory bound."""
        info = VkImageCreateInfo(imageType=1, format=fmt,
                                 extent=VkExtent3D(width, height, 1),
                                 mipLevels=mip_levels,
                                 arrayLayers=array_layers, samples=1,
                                 usage=usage,
                                 initialLayout=VK_IMAGE_LAYOUT_UNDEFINED)
        handle = self._create('image', 'vkCreateImage', info)
        self._bind_memory('image', handle)
        return handle

    def image_view(self, image: int, fmt: int = VK_FORMAT_R8G8B8A8_UNORM,
                   aspect: int = VK_IMAGE_ASPECT_COLOR_BIT,
                   base_mip: int = 0, levels: int = 1, base_layer: int = 0,
                   layers: int = 1, view_type: int = None) -> int:
        """A VkImageView of `image`; 2D, or 2D_ARRAY when layers > 1."""
        if view_type is None:
            view_type = (VK_IMAGE_VIEW_TYPE_2D if layers == 1
                         else VK_IMAGE_VIEW_TYPE_2D_ARRAY)
        subresources = VkImageSubresourceRange(aspect, base_mip, levels,
                                               base_layer, layers)
        info = VkImageViewCreateInfo(image=image, viewType=view_type,
                                     format=fmt,
                                     subresourceRange=subresources)
        return self._create('image_view', 'vkCreateImageView', info)

    def buffer_view(self, buffer: int, fmt: int = VK_FORMAT_R32_SFLOAT,
                    offset: int = 0, range: int = VK_WHOLE_SIZE) -> int:
        """A VkBufferView of `buffer` (a texel buffer usage is needed)."""
        info = VkBufferViewCreateInfo(buffer=buffer, format=fmt,
                                      offset=offset, range=range)
        return self._create('buffer_view', 'vkCreateBufferView', info)

    def sampler(self) -> int:
        """A VkSampler: linear filtering and mipmaps, clamp to edge."""
        info = VkSamplerCreateInfo(magFilter=1, minFilter=1, mipmapMode=1,
                                   addressModeU=2, addressModeV=2,
                                   addressModeW=2, maxAnisotropy=1.0,
                                   maxLod=1000.0)
        return self._create('sampler', 'vkCreateSampler', info)

    def render_pass(self, fmt: int = VK_FORMAT_R8G8B8A8_UNORM) -> int:
        """A VkRenderPass of one colour attachment of `fmt` (cleared,
        stored, ending COLOR_ATTACHMENT_OPTIMAL) and one graphics subpass."""
        attachment = VkAttachmentDescription(
            format=fmt, samples=1, loadOp=1, storeOp=0, stencilLoadOp=2,
            stencilStoreOp=1, initialLayout=VK_IMAGE_LAYOUT_UNDEFINED,
            finalLayout=VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        colour = VkAttachmentReference(
            0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        subpass = VkSubpassDescription(pipelineBindPoint=0,
                                       colorAttachmentCount=1,
                                       pColorAttachments=ctypes.pointer(
                                           colour))
        info = VkRenderPassCreateInfo(attachmentCount=1,
                                      pAttachments=ctypes.pointer(attachment),
                                      subpassCount=1,
                                      pSubpasses=ctypes.pointer(subpass))
        return self._create('render_pass', 'vkCreateRenderPass', info)

    def _destroy_object(self, kind, handle, memory):
        self._call(_DESTROY[kind], handle, None)
        if memory:
            self._call('vkFreeMemory', memory, None)

    def destroy(self, handle: int) -> None:
        """Destroys one object made here (and frees its memory) before
        close(), e.g. to test invalidation. Destroy views before what
        they view."""
        for i in reversed(range(len(self._objects))):
            if self._objects[i][1] == handle:
                self._destroy_object(*self._objects.pop(i))
                return
        raise KeyError(f'no object 0x{handle:x} made here')

    def close(self) -> None:
        """Destroys every object still held, newest first. Call it
        before the device is destroyed; calling it again does nothing."""
        while self._objects:
            self._destroy_object(*self._objects.pop())


# --- Self-test: a device of its own under the validation layer -------------

def _selftest():
    class AppInfo(_Info):
        _stype = 0
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('pApplicationName', c_char_p),
                    ('applicationVersion', c_uint32),
                    ('pEngineName', c_char_p), ('engineVersion', c_uint32),
                    ('apiVersion', c_uint32)]

    class InstanceInfo(_Info):
        _stype = 1
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('flags', VkFlags), ('pApplicationInfo', POINTER(AppInfo)),
                    ('enabledLayerCount', c_uint32),
                    ('ppEnabledLayerNames', POINTER(c_char_p)),
                    ('enabledExtensionCount', c_uint32),
                    ('ppEnabledExtensionNames', POINTER(c_char_p))]

    class QueueInfo(_Info):
        _stype = 2
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('flags', VkFlags), ('queueFamilyIndex', c_uint32),
                    ('queueCount', c_uint32),
                    ('pQueuePriorities', POINTER(c_float))]

    class DeviceInfo(_Info):
        _stype = 3
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('flags', VkFlags), ('queueCreateInfoCount', c_uint32),
                    ('pQueueCreateInfos', POINTER(QueueInfo)),
                    ('enabledLayerCount', c_uint32),
                    ('ppEnabledLayerNames', POINTER(c_char_p)),
                    ('enabledExtensionCount', c_uint32),
                    ('ppEnabledExtensionNames', POINTER(c_char_p)),
                    ('pEnabledFeatures', c_void_p)]

    class CallbackData(Structure):   # VkDebugUtilsMessengerCallbackDataEXT
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('flags', VkFlags), ('pMessageIdName', c_char_p),
                    ('messageIdNumber', c_int32), ('pMessage', c_char_p)]

    Callback = CFUNCTYPE(c_uint32, c_uint32, c_uint32,
                         POINTER(CallbackData), c_void_p)

    class MessengerInfo(_Info):
        _stype = 1000128004
        _fields_ = [('sType', VkEnum), ('pNext', c_void_p),
                    ('flags', VkFlags), ('messageSeverity', VkFlags),
                    ('messageType', VkFlags), ('pfnUserCallback', Callback),
                    ('pUserData', c_void_p)]

    WARNING, ERROR = 0x100, 0x1000
    counts = {WARNING: 0, ERROR: 0}

    @Callback
    def on_message(severity, types, data, user):
        counts[severity] = counts.get(severity, 0) + 1
        print(f'validation [0x{severity:x}]: {data[0].pMessage.decode()}')
        return 0

    def strings(*names):
        return (c_char_p * len(names))(*names)

    layers = strings(b'VK_LAYER_KHRONOS_validation')
    extensions = strings(b'VK_EXT_debug_utils')
    messenger_info = MessengerInfo(messageSeverity=WARNING | ERROR,
                                   messageType=0x7,
                                   pfnUserCallback=on_message)
    app = AppInfo(pApplicationName=b'vk_resources', apiVersion=1 << 22)
    info = InstanceInfo(pNext=ctypes.addressof(messenger_info),
                        pApplicationInfo=ctypes.pointer(app),
                        enabledLayerCount=1, ppEnabledLayerNames=layers,
                        enabledExtensionCount=1,
                        ppEnabledExtensionNames=extensions)
    instance = c_void_p()
    _check('vkCreateInstance',
           _vk.vkCreateInstance(byref(info), None, byref(instance)))

    _vk.vkGetInstanceProcAddr.restype = c_void_p
    _vk.vkGetInstanceProcAddr.argtypes = [c_void_p, c_char_p]
    VoidFn = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_void_p, c_void_p)
    create_messenger = VoidFn(_vk.vkGetInstanceProcAddr(
        instance, b'vkCreateDebugUtilsMessengerEXT'))
    destroy_messenger = CFUNCTYPE(None, c_void_p, VkHandle, c_void_p)(
        _vk.vkGetInstanceProcAddr(instance,
                                  b'vkDestroyDebugUtilsMessengerEXT'))
    messenger = VkHandle()
    _check('vkCreateDebugUtilsMessengerEXT',
           create_messenger(instance, byref(messenger_info), None,
                            byref(messenger)))

    count = c_uint32(1)
    physical = c_void_p()
    result = _vk.vkEnumeratePhysicalDevices(instance, byref(count),
                                            byref(physical))
    if result not in (0, 5):    # VK_INCOMPLETE: more than one device
        _check('vkEnumeratePhysicalDevices', result)
    assert count.value >= 1 and physical.value, 'no physical device'
    priority = c_float(1.0)
    queue = QueueInfo(queueFamilyIndex=0, queueCount=1,
                      pQueuePriorities=ctypes.pointer(priority))
    dev_info = DeviceInfo(queueCreateInfoCount=1,
                          pQueueCreateInfos=ctypes.pointer(queue))
    device = c_void_p()
    _check('vkCreateDevice', _vk.vkCreateDevice(physical, byref(dev_info),
                                                None, byref(device)))

    with Resources(device.value) as res:
        buf = res.buffer(256)
        res.buffer_view(buf)
        img = res.image(mip_levels=2, array_layers=3)
        res.image_view(img)
        res.image_view(img, base_mip=1, base_layer=1, layers=2)
        res.sampler()
        res.render_pass()
        early = res.buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)
        res.destroy(early)
        made = len(res._objects) + 1
    print(f'made {made} objects, destroyed one early, closed')

    _vk.vkDestroyDevice(device, None)
    destroy_messenger(instance, messenger.value, None)
    _vk.vkDestroyInstance(instance, None)
    print(f'validation: {counts[ERROR]} errors, {counts[WARNING]} warnings')
    assert counts[ERROR] == 0, 'validation errors'


if __name__ == '__main__':
    _selftest()
