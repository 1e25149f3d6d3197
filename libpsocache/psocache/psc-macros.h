/* psc-macros.h: export, availability and deprecation macros shared by every
 * public header, and the version an application may pin its API to.
 *
 * In the GLib style (gversionmacros.h): each public declaration carries the
 * macro of the release that added it (`PSC_AVAILABLE_IN_0_1`), or, once it
 * is deprecated, of the release that deprecated it
 * (`PSC_DEPRECATED_IN_0_3_FOR (psc_new_thing)`). An application that defines
 * `PSC_VERSION_MIN_REQUIRED` / `PSC_VERSION_MAX_ALLOWED` before including
 * <psocache/psocache.h> is warned when it uses a symbol deprecated by its
 * minimum version or added after its maximum one. docs/abi.md says how a
 * new release extends this file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#if defined(_WIN32) || defined(__CYGWIN__)
# define _PSC_EXPORT __declspec(dllexport) extern
#elif defined(__GNUC__)
# define _PSC_EXPORT __attribute__((visibility ("default"))) extern
#else
# define _PSC_EXPORT extern
#endif

/* The attributes behind the deprecation macros; empty where the compiler
 * has none, and when the application asked for no warnings. */
#if defined(PSC_DISABLE_DEPRECATION_WARNINGS) || !defined(__GNUC__)
# define _PSC_DEPRECATED_ATTR
# define _PSC_DEPRECATED_FOR_ATTR(f)
# define _PSC_UNAVAILABLE_ATTR(maj,min)
#else
# define _PSC_DEPRECATED_ATTR __attribute__((__deprecated__))
# define _PSC_DEPRECATED_FOR_ATTR(f) __attribute__((__deprecated__ ("Use '" #f "' instead")))
# define _PSC_UNAVAILABLE_ATTR(maj,min) __attribute__((__deprecated__ ("Not available before " #maj "." #min)))
#endif

/**
 * PSC_DEPRECATED:
 *
 * Marks a function as deprecated: using it warns, unless
 * `PSC_DISABLE_DEPRECATION_WARNINGS` is defined. Public declarations use the
 * versioned form, `PSC_DEPRECATED_IN_0_1` and the like, instead.
 *
 * Since: 0.1
 */
#define PSC_DEPRECATED _PSC_DEPRECATED_ATTR _PSC_EXPORT

/**
 * PSC_DEPRECATED_FOR:
 * @f: the function to use instead
 *
 * Like `PSC_DEPRECATED`, naming the replacement in the warning.
 *
 * Since: 0.1
 */
#define PSC_DEPRECATED_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f) _PSC_EXPORT

/**
 * PSC_UNAVAILABLE:
 * @maj: the major version that added the function
 * @min: the minor version that added the function
 *
 * Marks a function added after the `PSC_VERSION_MAX_ALLOWED` the application
 * chose: using it warns ("Not available before maj.min").
 *
 * Since: 0.1
 */
#define PSC_UNAVAILABLE(maj,min) _PSC_UNAVAILABLE_ATTR (maj, min) _PSC_EXPORT

/**
 * PSC_ENCODE_VERSION:
 * @major: a major version
 * @minor: a minor version
 *
 * Encodes a libpsocache version as a number that compares in release order,
 * for `PSC_VERSION_MIN_REQUIRED` and `PSC_VERSION_MAX_ALLOWED`.
 *
 * Since: 0.1
 */
#define PSC_ENCODE_VERSION(major,minor) ((major) << 16 | (minor) << 8)

/**
 * PSC_VERSION_0_1:
 *
 * The version number of libpsocache 0.1, for `PSC_VERSION_MIN_REQUIRED` and
 * `PSC_VERSION_MAX_ALLOWED`.
 *
 * Since: 0.1
 */
#define PSC_VERSION_0_1 (PSC_ENCODE_VERSION (0, 1))

/**
 * PSC_VERSION_0_2:
 *
 * The version number of libpsocache 0.2, for `PSC_VERSION_MIN_REQUIRED` and
 * `PSC_VERSION_MAX_ALLOWED`.
 *
 * Since: 0.2
 */
#define PSC_VERSION_0_2 (PSC_ENCODE_VERSION (0, 2))

/**
 * PSC_VERSION_0_3:
 *
 * The version number of libpsocache 0.3, for `PSC_VERSION_MIN_REQUIRED` and
 * `PSC_VERSION_MAX_ALLOWED`.
 *
 * Since: 0.3
 */
#define PSC_VERSION_0_3 (PSC_ENCODE_VERSION (0, 3))

/**
 * PSC_VERSION_CUR_STABLE:
 *
 * The version of these headers (major and minor), encoded as
 * `PSC_VERSION_0_1` is. The abi suite checks that it matches
 * `PSC_MAJOR_VERSION` and `PSC_MINOR_VERSION`.
 *
 * Since: 0.1
 */
#define PSC_VERSION_CUR_STABLE (PSC_VERSION_0_3)

/**
 * PSC_VERSION_MIN_REQUIRED:
 *
 * The oldest libpsocache the application supports, a `PSC_VERSION_0_1`
 * style value the application may define before including
 * <psocache/psocache.h> (default: `PSC_VERSION_CUR_STABLE`). Using a
 * symbol deprecated in that version or earlier warns.
 *
 * Since: 0.1
 */
#ifndef PSC_VERSION_MIN_REQUIRED
# define PSC_VERSION_MIN_REQUIRED (PSC_VERSION_CUR_STABLE)
#endif

/**
 * PSC_VERSION_MAX_ALLOWED:
 *
 * The newest libpsocache API the application may use, a `PSC_VERSION_0_1`
 * style value the application may define before including
 * <psocache/psocache.h> (default: `PSC_VERSION_CUR_STABLE`, or
 * `PSC_VERSION_MIN_REQUIRED` if that is newer). Using a symbol added after
 * that version warns.
 *
 * Since: 0.1
 */
#ifndef PSC_VERSION_MAX_ALLOWED
# if PSC_VERSION_MIN_REQUIRED > PSC_VERSION_CUR_STABLE
#  define PSC_VERSION_MAX_ALLOWED (PSC_VERSION_MIN_REQUIRED)
# else
#  define PSC_VERSION_MAX_ALLOWED (PSC_VERSION_CUR_STABLE)
# endif
#endif

#if PSC_VERSION_MIN_REQUIRED < PSC_VERSION_0_1
#error "PSC_VERSION_MIN_REQUIRED must be >= PSC_VERSION_0_1 (the first release)"
#endif
#if PSC_VERSION_MIN_REQUIRED > PSC_VERSION_CUR_STABLE
#error "PSC_VERSION_MIN_REQUIRED must be <= PSC_VERSION_CUR_STABLE (these headers are older than the version required)"
#endif
#if PSC_VERSION_MAX_ALLOWED < PSC_VERSION_MIN_REQUIRED
#error "PSC_VERSION_MAX_ALLOWED must be >= PSC_VERSION_MIN_REQUIRED"
#endif

/* One block per release. A new release copies the block, replacing 0_1 and
 * (0, 1) with its own version, and adds its PSC_VERSION_X_Y above. */

/**
 * PSC_DEPRECATED_IN_0_1:
 *
 * Marks a function deprecated in libpsocache 0.1: using it warns when
 * `PSC_VERSION_MIN_REQUIRED` is 0.1 or newer.
 *
 * Since: 0.1
 */
/**
 * PSC_DEPRECATED_IN_0_1_FOR:
 * @f: the function to use instead
 *
 * Like `PSC_DEPRECATED_IN_0_1`, naming the replacement in the warning.
 *
 * Since: 0.1
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_1:
 *
 * Marks a type deprecated in libpsocache 0.1 (placed after the type's name
 * in its typedef).
 *
 * Since: 0.1
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_1_FOR:
 * @f: the type to use instead
 *
 * Like `PSC_DEPRECATED_TYPE_IN_0_1`, naming the replacement.
 *
 * Since: 0.1
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_1:
 *
 * Marks an enumeration value deprecated in libpsocache 0.1 (placed after
 * the value's name).
 *
 * Since: 0.1
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_1_FOR:
 * @f: the value to use instead
 *
 * Like `PSC_DEPRECATED_ENUMERATOR_IN_0_1`, naming the replacement.
 *
 * Since: 0.1
 */
#if PSC_VERSION_MIN_REQUIRED >= PSC_VERSION_0_1
# define PSC_DEPRECATED_IN_0_1 PSC_DEPRECATED
# define PSC_DEPRECATED_IN_0_1_FOR(f) PSC_DEPRECATED_FOR (f)
# define PSC_DEPRECATED_TYPE_IN_0_1 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_TYPE_IN_0_1_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_1 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_ENUMERATOR_IN_0_1_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
#else
# define PSC_DEPRECATED_IN_0_1 _PSC_EXPORT
# define PSC_DEPRECATED_IN_0_1_FOR(f) _PSC_EXPORT
# define PSC_DEPRECATED_TYPE_IN_0_1
# define PSC_DEPRECATED_TYPE_IN_0_1_FOR(f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_1
# define PSC_DEPRECATED_ENUMERATOR_IN_0_1_FOR(f)
#endif

/**
 * PSC_AVAILABLE_IN_0_1:
 *
 * Marks a function added in libpsocache 0.1 (exported; using it warns when
 * `PSC_VERSION_MAX_ALLOWED` is older than 0.1).
 *
 * Since: 0.1
 */
/**
 * PSC_AVAILABLE_TYPE_IN_0_1:
 *
 * Marks a type added in libpsocache 0.1 (placed after the type's name in
 * its typedef).
 *
 * Since: 0.1
 */
/**
 * PSC_AVAILABLE_ENUMERATOR_IN_0_1:
 *
 * Marks an enumeration value added in libpsocache 0.1 (placed after the
 * value's name).
 *
 * Since: 0.1
 */
#if PSC_VERSION_MAX_ALLOWED < PSC_VERSION_0_1
# define PSC_AVAILABLE_IN_0_1 PSC_UNAVAILABLE (0, 1)
# define PSC_AVAILABLE_TYPE_IN_0_1 _PSC_UNAVAILABLE_ATTR (0, 1)
# define PSC_AVAILABLE_ENUMERATOR_IN_0_1 _PSC_UNAVAILABLE_ATTR (0, 1)
#else
# define PSC_AVAILABLE_IN_0_1 _PSC_EXPORT
# define PSC_AVAILABLE_TYPE_IN_0_1
# define PSC_AVAILABLE_ENUMERATOR_IN_0_1
#endif

/**
 * PSC_DEPRECATED_IN_0_2:
 *
 * Marks a function deprecated in libpsocache 0.2: using it warns when
 * `PSC_VERSION_MIN_REQUIRED` is 0.2 or newer.
 *
 * Since: 0.2
 */
/**
 * PSC_DEPRECATED_IN_0_2_FOR:
 * @f: the function to use instead
 *
 * Like `PSC_DEPRECATED_IN_0_2`, naming the replacement in the warning.
 *
 * Since: 0.2
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_2:
 *
 * Marks a type deprecated in libpsocache 0.2 (placed after the type's name
 * in its typedef).
 *
 * Since: 0.2
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_2_FOR:
 * @f: the type to use instead
 *
 * Like `PSC_DEPRECATED_TYPE_IN_0_2`, naming the replacement.
 *
 * Since: 0.2
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_2:
 *
 * Marks an enumeration value deprecated in libpsocache 0.2 (placed after
 * the value's name).
 *
 * Since: 0.2
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_2_FOR:
 * @f: the value to use instead
 *
 * Like `PSC_DEPRECATED_ENUMERATOR_IN_0_2`, naming the replacement.
 *
 * Since: 0.2
 */
#if PSC_VERSION_MIN_REQUIRED >= PSC_VERSION_0_2
# define PSC_DEPRECATED_IN_0_2 PSC_DEPRECATED
# define PSC_DEPRECATED_IN_0_2_FOR(f) PSC_DEPRECATED_FOR (f)
# define PSC_DEPRECATED_TYPE_IN_0_2 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_TYPE_IN_0_2_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_2 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_ENUMERATOR_IN_0_2_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
#else
# define PSC_DEPRECATED_IN_0_2 _PSC_EXPORT
# define PSC_DEPRECATED_IN_0_2_FOR(f) _PSC_EXPORT
# define PSC_DEPRECATED_TYPE_IN_0_2
# define PSC_DEPRECATED_TYPE_IN_0_2_FOR(f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_2
# define PSC_DEPRECATED_ENUMERATOR_IN_0_2_FOR(f)
#endif

/**
 * PSC_AVAILABLE_IN_0_2:
 *
 * Marks a function added in libpsocache 0.2 (exported; using it warns when
 * `PSC_VERSION_MAX_ALLOWED` is older than 0.2).
 *
 * Since: 0.2
 */
/**
 * PSC_AVAILABLE_TYPE_IN_0_2:
 *
 * Marks a type added in libpsocache 0.2 (placed after the type's name in
 * its typedef).
 *
 * Since: 0.2
 */
/**
 * PSC_AVAILABLE_ENUMERATOR_IN_0_2:
 *
 * Marks an enumeration value added in libpsocache 0.2 (placed after the
 * value's name).
 *
 * Since: 0.2
 */
#if PSC_VERSION_MAX_ALLOWED < PSC_VERSION_0_2
# define PSC_AVAILABLE_IN_0_2 PSC_UNAVAILABLE (0, 2)
# define PSC_AVAILABLE_TYPE_IN_0_2 _PSC_UNAVAILABLE_ATTR (0, 2)
# define PSC_AVAILABLE_ENUMERATOR_IN_0_2 _PSC_UNAVAILABLE_ATTR (0, 2)
#else
# define PSC_AVAILABLE_IN_0_2 _PSC_EXPORT
# define PSC_AVAILABLE_TYPE_IN_0_2
# define PSC_AVAILABLE_ENUMERATOR_IN_0_2
#endif

/**
 * PSC_DEPRECATED_IN_0_3:
 *
 * Marks a function deprecated in libpsocache 0.3: using it warns when
 * `PSC_VERSION_MIN_REQUIRED` is 0.3 or newer.
 *
 * Since: 0.3
 */
/**
 * PSC_DEPRECATED_IN_0_3_FOR:
 * @f: the function to use instead
 *
 * Like `PSC_DEPRECATED_IN_0_3`, naming the replacement in the warning.
 *
 * Since: 0.3
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_3:
 *
 * Marks a type deprecated in libpsocache 0.3 (placed after the type's name
 * in its typedef).
 *
 * Since: 0.3
 */
/**
 * PSC_DEPRECATED_TYPE_IN_0_3_FOR:
 * @f: the type to use instead
 *
 * Like `PSC_DEPRECATED_TYPE_IN_0_3`, naming the replacement.
 *
 * Since: 0.3
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_3:
 *
 * Marks an enumeration value deprecated in libpsocache 0.3 (placed after
 * the value's name).
 *
 * Since: 0.3
 */
/**
 * PSC_DEPRECATED_ENUMERATOR_IN_0_3_FOR:
 * @f: the value to use instead
 *
 * Like `PSC_DEPRECATED_ENUMERATOR_IN_0_3`, naming the replacement.
 *
 * Since: 0.3
 */
#if PSC_VERSION_MIN_REQUIRED >= PSC_VERSION_0_3
# define PSC_DEPRECATED_IN_0_3 PSC_DEPRECATED
# define PSC_DEPRECATED_IN_0_3_FOR(f) PSC_DEPRECATED_FOR (f)
# define PSC_DEPRECATED_TYPE_IN_0_3 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_TYPE_IN_0_3_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_3 _PSC_DEPRECATED_ATTR
# define PSC_DEPRECATED_ENUMERATOR_IN_0_3_FOR(f) _PSC_DEPRECATED_FOR_ATTR (f)
#else
# define PSC_DEPRECATED_IN_0_3 _PSC_EXPORT
# define PSC_DEPRECATED_IN_0_3_FOR(f) _PSC_EXPORT
# define PSC_DEPRECATED_TYPE_IN_0_3
# define PSC_DEPRECATED_TYPE_IN_0_3_FOR(f)
# define PSC_DEPRECATED_ENUMERATOR_IN_0_3
# define PSC_DEPRECATED_ENUMERATOR_IN_0_3_FOR(f)
#endif

/**
 * PSC_AVAILABLE_IN_0_3:
 *
 * Marks a function added in libpsocache 0.3 (exported; using it warns when
 * `PSC_VERSION_MAX_ALLOWED` is older than 0.3).
 *
 * Since: 0.3
 */
/**
 * PSC_AVAILABLE_TYPE_IN_0_3:
 *
 * Marks a type added in libpsocache 0.3 (placed after the type's name in
 * its typedef).
 *
 * Since: 0.3
 */
/**
 * PSC_AVAILABLE_ENUMERATOR_IN_0_3:
 *
 * Marks an enumeration value added in libpsocache 0.3 (placed after the
 * value's name).
 *
 * Since: 0.3
 */
#if PSC_VERSION_MAX_ALLOWED < PSC_VERSION_0_3
# define PSC_AVAILABLE_IN_0_3 PSC_UNAVAILABLE (0, 3)
# define PSC_AVAILABLE_TYPE_IN_0_3 _PSC_UNAVAILABLE_ATTR (0, 3)
# define PSC_AVAILABLE_ENUMERATOR_IN_0_3 _PSC_UNAVAILABLE_ATTR (0, 3)
#else
# define PSC_AVAILABLE_IN_0_3 _PSC_EXPORT
# define PSC_AVAILABLE_TYPE_IN_0_3
# define PSC_AVAILABLE_ENUMERATOR_IN_0_3
#endif

