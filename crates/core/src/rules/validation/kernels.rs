//! E05xx: compute kernels — workgroup sizes and the subgroup-size decision per target.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0501",
        vuid: Some("VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02760"),
        severity: Error,
        title: "the required subgroup size is not a power of two",
        explanation: r#"`requiredSubgroupSize` must be a power of two; every device's subgroup sizes are.

```ron
subgroup: Required(size: Fixed(48), full: false),
```

Fix: use a power of two — better, `size: Min` or `size: Max`, which dgcc resolves per target."#,
    },
    Rule {
        code: "E0502",
        vuid: Some("VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02761"),
        severity: Error,
        title: "the required subgroup size is below the target's minSubgroupSize",
        explanation: r#"A required size must be at least the target's `minSubgroupSize`. A size tuned for one vendor fails on others: 32 is below the minimum of AMD GCN (64), 8 is below NVIDIA's (32).

```ron
// targets: ["nvidia"]
subgroup: Required(size: Fixed(8), full: true),
```

Fix: `size: Min` or `size: Max`, resolved per target, and write the shader for any size (read `gl_SubgroupSize`)."#,
    },
    Rule {
        code: "E0503",
        vuid: Some("VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02762"),
        severity: Error,
        title: "the required subgroup size exceeds the target's maxSubgroupSize",
        explanation: r#"A required size must be at most the target's `maxSubgroupSize`. Hard-coding NVIDIA's 32 is the classic case: lavapipe runs 8 (4 on 128-bit hosts), Intel up to 32, Mali 16.

```ron
// targets: ["lavapipe"]
subgroup: Required(size: Fixed(32), full: true),
```

Fix: `size: Min` or `size: Max`, resolved per target."#,
    },
    Rule {
        code: "E0504",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-pNext-02755"),
        severity: Error,
        title: "the target cannot require a subgroup size for compute shaders",
        explanation: r#"A required subgroup size needs the `subgroupSizeControl` feature and the compute stage in `requiredSubgroupSizeStages`. Several drivers list no stage at all (NVK, MoltenVK, Honeykrisp), so any `Required` fails there.

```ron
// targets: ["nvk"]
subgroup: Required(size: Fixed(32), full: false),
```

Fix: use `subgroup: Full` or `Any` on such targets and read `gl_SubgroupSize` in the shader."#,
    },
    Rule {
        code: "E0505",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-pNext-02756"),
        severity: Error,
        title: "more invocations than the required subgroup size × maxComputeWorkgroupSubgroups",
        explanation: r#"With a required subgroup size, a workgroup may have at most `requiredSubgroupSize × maxComputeWorkgroupSubgroups` invocations (x·y·z). Small subgroups cap workgroups hard: lavapipe has 8 × 32 = 256.

```ron
// targets: ["lavapipe"]
local_size: (512, 1, 1),
subgroup: Required(size: Min, full: false),   // 8 × 32 = 256 < 512
```

Fix: a smaller workgroup, or a larger required size."#,
    },
    Rule {
        code: "E0506",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-pNext-02757"),
        severity: Error,
        title: "full subgroups of a required size, but local_size x is not a multiple of it",
        explanation: r#"With a required size and full subgroups, `local_size` x must be a multiple of the required size, so every subgroup is full.

```ron
// targets: ["radv"]
local_size: (48, 1, 1),
subgroup: Required(size: Max, full: true),   // 64 on radv
```

Fix: a multiple of the largest size you may require (64 covers every desktop GPU)."#,
    },
    Rule {
        code: "E0507",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-flags-02758"),
        severity: Error,
        title: "full subgroups of varying size, but local_size x is not a multiple of maxSubgroupSize",
        explanation: r#"A pipeline that requires full subgroups *and* allows a varying size must have `local_size` x a multiple of `maxSubgroupSize`: whichever size the driver picks, every subgroup is then full. A description cannot ask for both flags (`subgroup:` is one of `Varying`, `Full`, `Required`), so this appears for manifests whose kernel flags were edited to 0x3.

```json
"kernels": [{"name": "cull", "local_size": [48, 1, 1], "targets": {"radv": {"flags": 3}}}]
```

Fix: a multiple of `maxSubgroupSize`, or drop one of the flags."#,
    },
    Rule {
        code: "E0508",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-flags-02759"),
        severity: Error,
        title: "full subgroups, but local_size x is not a multiple of the default subgroupSize",
        explanation: r#"With `subgroup: Full` (and no required size), `local_size` x must be a multiple of the target's default `subgroupSize`: 32 on NVIDIA, 64 on radv, 8 on lavapipe.

```ron
// targets: ["radv"]
local_size: (32, 1, 1),
subgroup: Full,
```

Fix: a multiple of 64, which is full on every desktop target."#,
    },
    Rule {
        code: "E0509",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-flags-02785"),
        severity: Error,
        title: "full subgroups on a target without computeFullSubgroups",
        explanation: r#"Requiring full subgroups needs the `computeFullSubgroups` feature (required by Vulkan 1.3, so only older or odd profiles lack it). Full subgroups are only for compute, task and mesh shaders (`VUID-VkPipelineShaderStageCreateInfo-flags-08988`); dgcc kernels are compute shaders, so that rule holds by construction.

```ron
subgroup: Full,   // on a profile with computeFullSubgroups: false
```

Fix: drop `full`, and do not derive subgroup lanes from `gl_LocalInvocationIndex`."#,
    },
    Rule {
        code: "E0510",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-flags-02784"),
        severity: Error,
        title: "a varying subgroup size on a target without subgroupSizeControl",
        explanation: r#"`subgroup: Varying` sets ALLOW_VARYING_SUBGROUP_SIZE, which needs the `subgroupSizeControl` feature (required by Vulkan 1.3).

```ron
subgroup: Varying,   // on a profile with subgroupSizeControl: false
```

Fix: `subgroup: Any`."#,
    },
    Rule {
        code: "E0511",
        vuid: Some("VUID-RuntimeSpirv-x-06429"),
        severity: Error,
        title: "local_size x exceeds maxComputeWorkGroupSize[0]",
        explanation: r#"A workgroup's x size must be at most `maxComputeWorkGroupSize[0]` (128 guaranteed, 1024 on desktop drivers).

```ron
local_size: (2048, 1, 1),
```

Fix: a smaller x; spread work over y or over more workgroups."#,
    },
    Rule {
        code: "E0512",
        vuid: Some("VUID-RuntimeSpirv-y-06430"),
        severity: Error,
        title: "local_size y exceeds maxComputeWorkGroupSize[1]",
        explanation: r#"A workgroup's y size must be at most `maxComputeWorkGroupSize[1]` (128 guaranteed, 1024 on desktop drivers).

```ron
local_size: (1, 2048, 1),
```

Fix: a smaller y."#,
    },
    Rule {
        code: "E0513",
        vuid: Some("VUID-RuntimeSpirv-z-06431"),
        severity: Error,
        title: "local_size z exceeds maxComputeWorkGroupSize[2]",
        explanation: r#"A workgroup's z size must be at most `maxComputeWorkGroupSize[2]`: only 64 is guaranteed, and NVIDIA allows exactly 64.

```ron
// targets: ["nvidia"]
local_size: (1, 1, 128),
```

Fix: a smaller z."#,
    },
    Rule {
        code: "E0514",
        vuid: Some("VUID-RuntimeSpirv-x-06432"),
        severity: Error,
        title: "more invocations per workgroup than maxComputeWorkGroupInvocations",
        explanation: r#"x·y·z must be at most `maxComputeWorkGroupInvocations`: 128 guaranteed, 1024 on desktop drivers. Each dimension can be within its own limit while the product is not.

```ron
local_size: (64, 32, 1),   // 2048 invocations
```

Fix: a smaller workgroup."#,
    },
    Rule {
        code: "E0515",
        vuid: None,
        severity: Error,
        title: "a workgroup dimension is zero",
        explanation: r#"Every `local_size` dimension is at least 1 (SPIR-V's `LocalSize` has no empty workgroups). No Vulkan VUID states it because SPIR-V tools reject the shader first; dgcc reports it where you wrote it.

```ron
local_size: (64, 0, 1),
```

Fix: use 1 for unused dimensions."#,
    },
    Rule {
        code: "E0516",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-pNext-02754"),
        severity: Error,
        title: "a required subgroup size together with a varying size",
        explanation: r#"A pipeline with a required subgroup size must not also allow a varying size: the size is fixed. A description cannot say both (`Required` never sets ALLOW_VARYING), so this appears for manifests whose kernel flags were edited.

```json
"targets": {"radv": {"required_subgroup_size": 32, "flags": 1}}
```

Fix: clear flag 0x1."#,
    },
];
