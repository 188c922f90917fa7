// The stream record the culling, compaction and binning kernels write, named RECORD_* so that
// each kernel is written once for both of examples/scene.ron's draw layouts:
// - SceneDraw (the default): the material's graphics pipeline, one execution-set index;
// - SceneDrawShaders (compiled with -DSHADER_OBJECT_RECORDS, `build.sh` makes the `.shaders`
//   variants): the material's vertex and fragment shader objects, one index per stage, material
//   m's pair at entries 2m and 2m + 1 of the set.
// Before including: RECORD_WRITER, to declare the stream at RECORD_STREAM_BINDING with the
// generated writers.
#ifdef SHADER_OBJECT_RECORDS

#ifdef RECORD_WRITER
#define SCENE_DRAW_SHADERS_WRITER
#define SCENE_DRAW_SHADERS_STREAM_BINDING RECORD_STREAM_BINDING
#endif
#include "generated/scene.glsl"
#define Record SceneDrawShadersRecord
#define RECORD_LAYOUT SCENE_DRAW_SHADERS_LAYOUT
#define RECORD_STRIDE SCENE_DRAW_SHADERS_STRIDE
#define RECORD_MATERIAL_OFFSET SCENE_DRAW_SHADERS_MATERIAL_OFFSET
#define RECORD_OBJECT_OFFSET SCENE_DRAW_SHADERS_OBJECT_OFFSET
#define RECORD_INDICES_OFFSET SCENE_DRAW_SHADERS_INDICES_OFFSET
#define RECORD_DRAW_OFFSET SCENE_DRAW_SHADERS_DRAW_OFFSET
const uint RECORD_MATERIAL_WORDS = 2u;

// The set indices of material m, one word per stage: vertex, then fragment.
uvec2 record_material_words(uint m) {
    return uvec2(2u * m, 2u * m + 1u);
}
// The material a record draws with, from its first material word.
uint record_material_of_word(uint w) {
    return w / 2u;
}
#ifdef RECORD_WRITER
#define record_stream scene_draw_shaders_stream
#define record_write_object scene_draw_shaders_write_object
#define record_write_indices scene_draw_shaders_write_indices
#define record_write_draw scene_draw_shaders_write_draw
void record_write_material(uint sequence, uint m) {
    uvec2 w = record_material_words(m);
    uint pair[2] = uint[2](w.x, w.y);
    scene_draw_shaders_write_material(sequence, pair);
}
#endif

#else

#ifdef RECORD_WRITER
#define SCENE_DRAW_WRITER
#define SCENE_DRAW_STREAM_BINDING RECORD_STREAM_BINDING
#endif
#include "generated/scene.glsl"
#define Record SceneDrawRecord
#define RECORD_LAYOUT SCENE_DRAW_LAYOUT
#define RECORD_STRIDE SCENE_DRAW_STRIDE
#define RECORD_MATERIAL_OFFSET SCENE_DRAW_MATERIAL_OFFSET
#define RECORD_OBJECT_OFFSET SCENE_DRAW_OBJECT_OFFSET
#define RECORD_INDICES_OFFSET SCENE_DRAW_INDICES_OFFSET
#define RECORD_DRAW_OFFSET SCENE_DRAW_DRAW_OFFSET
const uint RECORD_MATERIAL_WORDS = 1u;

// The set index of material m (the second word is unused).
uvec2 record_material_words(uint m) {
    return uvec2(m, 0u);
}
uint record_material_of_word(uint w) {
    return w;
}
#ifdef RECORD_WRITER
#define record_stream scene_draw_stream
#define record_write_object scene_draw_write_object
#define record_write_indices scene_draw_write_indices
#define record_write_draw scene_draw_write_draw
void record_write_material(uint sequence, uint m) {
    scene_draw_write_material(sequence, m);
}
#endif

#endif
