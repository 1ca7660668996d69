"""The words the WebShop catalog generator draws from: category tree, attributes, options, text.

Everything here is invented for AgentGym (no text from the original WebShop data). The tree has
the original's five top categories; each query subcategory is one line of ``SUBCATEGORY_TABLE``:

    top | breadcrumb below the root | head nouns | attributes | option groups | price low-high

(an entry continues on indented lines).
The first head noun is the subcategory's query (the original's "scraped under" search term).

An option group is ``name`` (pool of the same name) or ``name=pool``. Changing anything here
changes generated catalogs: bump ``catalog.GENERATOR_VERSION`` when you do.
"""

from __future__ import annotations

from dataclasses import dataclass

BREADCRUMB_SEPARATOR = " › "

TOP_CATEGORIES: tuple[str, ...] = ("beauty", "electronics", "fashion", "food", "furniture")

ROOT_BREADCRUMB: dict[str, tuple[str, ...]] = {
    "beauty": ("Beauty & Personal Care",),
    "electronics": ("Electronics",),
    "fashion": ("Clothing, Shoes & Jewelry",),
    "food": ("Grocery & Gourmet Food",),
    "furniture": ("Home & Kitchen", "Furniture"),
}

#: Attributes any product of the top category may carry (next to its subcategory's own).
# fmt: off
SHARED_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "beauty": (
        "coconut oil blend", "argan oil infused", "rosehip oil", "vitamin c boost",
        "retinol complex", "ceramide complex", "peptide complex", "niacinamide boost",
        "charcoal infused", "rice water", "snail mucin", "bakuchiol", "squalane", "tea tree oil",
        "witch hazel", "salicylic formula", "glycolic acid", "lactic acid", "kojic acid",
        "zinc oxide", "titanium dioxide", "reef friendly", "sulfate free formula", "twist up",
        "dual ended", "built-in mirror", "magnetic closure", "airless pump", "dropper bottle",
        "refill pack", "pocket size", "unisex scent", "matte texture", "dewy finish",
        "satin finish", "buildable formula", "smudge resistant", "sweat proof",
        "humidity resistant", "overnight repair", "long lasting", "cruelty free", "paraben free",
        "natural ingredients", "easy to use", "travel size", "sensitive skin",
        "dermatologist tested", "fragrance free", "vegan formula", "non toxic", "high quality",
        "alcohol free", "made in usa", "recyclable packaging", "salon quality",
        "lightweight formula", "quick absorbing", "all skin types", "aloe vera", "jojoba oil",
        "green tea extract", "vitamin e", "rose water", "shea butter", "keratin", "collagen boost",
        "ph balanced", "hypoallergenic formula", "oil control", "refillable", "pump bottle",
        "gift set", "mineral oil free", "silicone free", "gluten free formula",
        "clinically proven", "ethically sourced", "soothing", "glass bottle",
    ),
    "electronics": (
        "bluetooth 5.3", "wifi 6e", "4k hdr", "1080p video", "60hz refresh", "120hz display",
        "ipx7 waterproof", "ip67 rated", "65w output", "20w pd", "qi2 charging", "usb 3.2",
        "hdmi 2.1", "thunderbolt 4", "gigabit speed", "dual microphones", "echo cancellation",
        "stereo speakers", "surround sound", "subwoofer output", "remote control included",
        "wall mountable", "desktop stand", "travel pouch", "braided cable", "metal housing",
        "glass back", "scratch proof", "fingerprint resistant", "shock resistant",
        "overcharge protection", "temperature control", "smart sensor", "motion sensor",
        "night mode", "auto brightness", "privacy shutter", "child lock", "firmware updates",
        "alexa compatible", "easy to use", "high speed", "fast charging", "plug and play",
        "high definition", "easy install", "wireless bluetooth", "usb port", "long battery life",
        "aluminum alloy", "heavy duty", "compact size", "energy efficient", "dust proof",
        "low latency", "app control", "voice control", "led indicator", "overheat protection",
        "universal fit", "ultra thin", "carrying case", "dual band", "touch screen",
        "magnetic mount", "auto shut off", "lifetime warranty", "fcc certified", "type c",
        "multi device", "anti slip base", "matte black", "abs plastic", "tangle free cable",
        "one touch pairing", "power saving mode", "high resolution", "shock absorbing",
        "portable design", "usb powered",
    ),
    "fashion": (
        "ribbed knit", "waffle knit", "cable knit pattern", "french terry", "jersey knit",
        "twill fabric", "chambray", "corduroy", "denim fabric", "satin finish", "lace trim",
        "ruffle hem", "raw hem", "pleated design", "wrap style", "button front", "snap buttons",
        "drawstring hood", "kangaroo pocket", "chest pocket", "zip pockets", "hidden pocket",
        "reinforced seams", "double stitched", "tagless label", "flat seams", "thumb holes",
        "reflective details", "padded insoles", "cushioned collar", "removable insole",
        "wide width", "padded shoulder strap", "gold hardware", "silver hardware",
        "nickel free clasp", "adjustable buckle", "elastic cuffs", "quilted design",
        "water repellent", "machine wash", "hand wash", "quality materials", "soft material",
        "daily wear", "fashion design", "easy care", "comfortable fit", "lightweight fabric",
        "imported", "100% cotton", "polyester blend", "breathable fabric", "wrinkle resistant",
        "pull on", "zipper closure", "tie closure", "contrast stitching", "faux fur",
        "recycled materials", "vegan leather", "fleece lining", "ribbed cuffs", "side pockets",
        "back pocket", "true to size", "unisex design", "non see through", "anti pilling",
        "fade resistant", "moisture control", "stretchy waistband", "classic style",
        "cold weather", "summer style", "hand made", "gift packaging", "adjustable fit",
        "odor resistant", "sun protection",
    ),
    "food": (
        "cage free eggs", "grass fed beef", "wild caught fish", "free range", "pasture raised",
        "stone ground", "cold brewed", "slow roasted", "kettle style", "air popped",
        "sprouted grains", "ancient grains", "whole grain oats", "real cocoa",
        "madagascar vanilla", "himalayan salt", "raw honey sweetened", "monk fruit sweetened",
        "stevia sweetened", "cane sugar", "fruit juice sweetened", "probiotic cultures",
        "prebiotic fiber", "mct oil", "collagen peptides", "electrolyte blend", "vitamin d added",
        "omega 3 rich", "iron fortified cereal", "low glycemic", "portion controlled",
        "microwave safe", "bpa free packaging", "glass jar", "recyclable pouch", "family pack",
        "variety assortment", "halal certified", "non dairy creamer", "caffeine boost",
        "gluten free", "non gmo", "low carb", "sugar free", "keto friendly", "high protein",
        "plant based", "kosher certified", "individually wrapped", "resealable bag",
        "usda organic", "no artificial colors", "ready to eat", "great gift", "dairy free",
        "nut free", "soy free", "low calorie", "high fiber", "whole30 approved", "paleo friendly",
        "no preservatives", "low sodium", "grain free", "made in small batches", "vegan snack",
        "party size", "bulk pack", "single serve", "shelf stable", "family owned",
        "natural flavors", "real fruit", "no added sugar", "egg free", "peanut free facility",
        "heart healthy", "fair trade certified", "sustainably sourced", "easy to prepare",
    ),
    "furniture": (
        "oak finish", "walnut finish", "espresso finish", "gray wash finish", "distressed finish",
        "marble top", "faux marble", "tempered glass top", "rattan weave", "woven seat",
        "linen fabric", "boucle fabric", "performance fabric", "leather look", "tufted backrest",
        "channel tufting", "nailhead trim", "hairpin legs", "tapered legs", "caster wheels",
        "locking casters", "swivel seat", "reclining function", "lift mechanism", "hydraulic lift",
        "cushioned seat", "memory foam seat", "built-in outlets", "usb charging ports",
        "led strip lights", "sliding barn door", "glass doors", "open cubbies", "fabric bins",
        "drawer organizers", "hanging rail", "wall hooks", "foldable frame", "stackable design",
        "weatherproof finish", "easy assembly", "living room", "bedroom", "storage space",
        "solid wood", "metal frame", "space saving", "heavy duty", "mid century", "easy clean",
        "dining room", "home office", "engineered wood", "tool free assembly", "adjustable feet",
        "scratch resistant", "water resistant", "non slip pads", "rustic brown", "white finish",
        "black metal", "round edges", "soft close", "high density foam", "wood veneer",
        "powder coated", "weight capacity", "modern design", "boho style", "farmhouse design",
        "industrial design", "pet friendly", "removable cover", "wall anchor", "pine wood",
        "velvet upholstery", "glass top", "gold legs", "hidden storage", "stable structure",
    ),
}
# fmt: on

# fmt: off
SUBCATEGORY_TABLE = """
beauty|Hair Care>Shampoo & Conditioner|shampoo,conditioner,shampoo and conditioner set|
    sulfate free,argan oil,dry hair,color treated,tea tree,hair growth,damaged hair|scent,
    size=beauty_size|7-45
beauty|Hair Care>Styling Products|hair gel,styling cream,hair wax,pomade|strong hold,
    matte finish,natural shine,curly hair,heat protection,water based|scent,size=beauty_size|
    6-30
beauty|Hair Care>Hair Loss Products|hair growth serum,hair loss treatment,biotin shampoo|
    hair growth,hair loss,thinning hair,biotin,rosemary oil,scalp care|size=beauty_size,
    item package quantity=count|12-60
beauty|Hair Care>Hair Coloring|hair dye,hair color kit,root touch up|permanent color,
    semi permanent,ammonia free,gray coverage,natural color|color=hair_color,
    item package quantity=count|5-28
beauty|Skin Care>Face>Moisturizers|face moisturizer,day cream,night cream,face lotion|
    hyaluronic acid,dry skin,oily skin,anti aging,spf 30,fine lines,vitamin c|size=beauty_size,
    item package quantity=count|9-70
beauty|Skin Care>Face>Serums|face serum,vitamin c serum,retinol serum|vitamin c,hyaluronic acid,
    retinol,dark spots,anti aging,fine lines,niacinamide|size=beauty_size,
    item package quantity=count|10-65
beauty|Skin Care>Face>Cleansers|face wash,facial cleanser,cleansing foam|oily skin,acne prone,
    deep cleansing,salicylic acid,gentle formula,pore minimizing|size=beauty_size,
    item package quantity=count|6-35
beauty|Skin Care>Face>Masks|face mask,sheet mask,clay mask|deep cleansing,hydrating,collagen,
    charcoal,pore minimizing,brightening|item package quantity=count,color|8-40
beauty|Skin Care>Eyes|eye cream,eye patches,under eye gel|dark circles,puffy eyes,fine lines,
    caffeine,collagen,anti aging|size=beauty_size,item package quantity=count|9-50
beauty|Skin Care>Body>Lotions|body lotion,body butter,body cream|shea butter,dry skin,
    cocoa butter,non greasy,coconut oil,fast absorbing|scent,size=beauty_size|6-32
beauty|Skin Care>Sunscreens|sunscreen,sunscreen lotion,sunscreen spray|spf 50,water resistant,
    broad spectrum,reef safe,mineral sunscreen,oil free|size=beauty_size,
    item package quantity=count|7-35
beauty|Makeup>Face>Foundation|foundation,liquid foundation,cushion foundation|full coverage,
    matte finish,oil free,buildable coverage,natural finish,long wear|color=shade,
    item package quantity=count|8-55
beauty|Makeup>Face>Concealers|concealer,color corrector|full coverage,dark circles,
    creamy texture,crease proof,long wear|color=shade,item package quantity=count|6-30
beauty|Makeup>Eyes>Eyeshadow|eyeshadow palette,eyeshadow,eye shadow stick|highly pigmented,
    shimmer,matte finish,blendable,long wear,glitter|color=palette,item package quantity=count|
    6-48
beauty|Makeup>Eyes>Mascara|mascara,lash primer|waterproof,lengthening,volumizing,smudge proof,
    clump free|color=lash_color,item package quantity=count|5-28
beauty|Makeup>Lips>Lipstick|lipstick,lip gloss,liquid lipstick,lip stain|matte finish,long wear,
    moisturizing,transfer proof,high shine,vitamin e|color=shade,item package quantity=count|
    5-32
beauty|Makeup>Makeup Remover|makeup remover,micellar water,cleansing balm|waterproof makeup,
    gentle formula,oil free,cotton pads,sensitive eyes|size=beauty_size,
    item package quantity=count|5-25
beauty|Foot, Hand & Nail Care>Nail Polish|nail polish,gel nail polish,nail polish set|quick dry,
    gel polish,chip resistant,high gloss,uv led,nail art|color=nail_color,
    item package quantity=count|5-35
beauty|Foot, Hand & Nail Care>Nail Tools|nail clipper,nail file,cuticle pusher,manicure set|
    stainless steel,nail art,dead skin,easy carry,professional grade|color,style=tool_style|5-30
beauty|Tools & Accessories>Makeup Brushes|makeup brush set,makeup brush,beauty sponge|
    synthetic bristles,soft bristles,easy clean,foundation brush,travel case|color,
    item package quantity=count|6-40
beauty|Fragrance>Perfume|perfume,eau de parfum,body mist|floral scent,long lasting fragrance,
    fresh scent,vanilla scent,woody scent|scent,size=beauty_size|12-95
beauty|Personal Care>Oral Care|toothpaste,electric toothbrush,teeth whitening kit,water flosser|
    teeth whitening,fluoride free,sensitive teeth,fresh breath,rechargeable battery|color,
    item package quantity=count|5-80
beauty|Personal Care>Shaving & Hair Removal|razor,electric shaver,hair removal cream,
    beard trimmer|cordless,rechargeable battery,stainless steel,sensitive skin,
    precision trimming,waterproof|color,style=tool_style|8-90
beauty|Personal Care>Deodorants|deodorant,antiperspirant,deodorant stick|aluminum free,
    48 hour protection,baking soda free,natural deodorant,odor protection|scent,
    item package quantity=count|5-22
electronics|Headphones>Over-Ear Headphones|headphones,over-ear headphones,gaming headset|
    noise cancelling,over ear,built-in microphone,hi-fi sound,foldable design,memory foam|color,
    style=audio_style|18-300
electronics|Headphones>Earbuds|earbuds,wireless earbuds,in-ear headphones|true wireless,
    noise cancelling,charging case,sweat resistant,touch control,stereo sound|color,
    style=audio_style|12-200
electronics|Portable Audio>Bluetooth Speakers|bluetooth speaker,portable speaker,smart speaker|
    waterproof,stereo sound,deep bass,outdoor speaker,party light,voice assistant|color,
    style=device_style|15-220
electronics|Home Audio>Soundbars|soundbar,sound bar,home theater system|dolby atmos,subwoofer,
    hdmi arc,wall mountable,surround sound,optical input|style=audio_style,color|50-400
electronics|Television & Video>Televisions|smart tv,led tv,television|4k ultra hd,smart tv,hdr,
    voice remote,dolby vision,wall mount|size=screen_size,style=device_style|120-900
electronics|Television & Video>TV Mounts|tv wall mount,tv mount,tv stand mount|full motion,
    tilt and swivel,heavy duty,vesa compatible,cable management,easy install|size=screen_size,
    style=device_style|15-90
electronics|Television & Video>Streaming Devices|streaming stick,streaming media player,
    hdmi dongle|4k ultra hd,voice remote,dolby vision,hdr,high speed|style=device_style,color|
    25-120
electronics|Computers>Laptops|laptop,notebook computer,chromebook|intel core,solid state drive,
    full hd,backlit keyboard,long battery life,windows 11|capacity,color|250-990
electronics|Computers>Tablets|tablet,android tablet,drawing tablet|octa core,full hd,
    long battery life,dual camera,stylus pen,kids mode|capacity,color|60-700
electronics|Computers>Monitors|monitor,gaming monitor,computer monitor|full hd,ips panel,
    144hz refresh rate,eye care,hdmi port,frameless design|size=screen_size,style=device_style|
    90-600
electronics|Computers>Keyboards & Mice|keyboard,wireless mouse,mechanical keyboard,
    keyboard and mouse combo|rgb backlit,mechanical switches,ergonomic design,silent click,
    rechargeable battery,usb receiver|color,style=device_style|12-150
electronics|Computers>Data Storage|external hard drive,usb flash drive,memory card,portable ssd|
    usb 3.0,high speed,shockproof,password protection,plug and play|capacity,color|8-260
electronics|Computers>Networking|wifi router,mesh wifi system,wifi extender,network switch|
    dual band,gigabit ethernet,parental controls,whole home,easy setup,wifi 6|
    style=device_style,color|25-350
electronics|Computers>Webcams|webcam,web camera,streaming camera|full hd,built-in microphone,
    auto focus,privacy cover,wide angle,plug and play|color,style=device_style|18-120
electronics|Cell Phones & Accessories>Cases|phone case,protective case,wallet case|shockproof,
    slim fit,wireless charging compatible,card holder,drop protection,kickstand|color,
    style=phone_model|6-40
electronics|Cell Phones & Accessories>Chargers|phone charger,wireless charger,car charger,
    charging station|fast charging,usb c,qi certified,multiple devices,overcharge protection,
    foldable plug|color,style=device_style|8-60
electronics|Cell Phones & Accessories>Cables|charging cable,usb c cable,lightning cable,
    hdmi cable|braided nylon,fast charging,data sync,tangle free,gold plated|length,color|5-30
electronics|Cell Phones & Accessories>Screen Protectors|screen protector,tempered glass,
    privacy screen|bubble free,9h hardness,case friendly,easy install,anti glare,
    scratch resistant|style=phone_model,item package quantity=count|5-25
electronics|Camera & Photo>Digital Cameras|digital camera,vlogging camera,action camera|
    4k video,optical zoom,image stabilization,wide angle,flip screen,waterproof|color,
    style=device_style|60-800
electronics|Camera & Photo>Security Cameras|security camera,doorbell camera,baby monitor|
    night vision,motion detection,two-way audio,cloud storage,outdoor camera,1080p hd|
    style=device_style,item package quantity=count|25-250
electronics|Wearable Technology>Smartwatches|smartwatch,fitness tracker,smart watch band|
    heart rate,sleep monitor,step counter,water resistant,blood oxygen,gps tracking|color,
    size=band_size|18-300
electronics|Video Games>Gaming Accessories|game controller,gaming mouse,
    controller charging dock|wireless controller,rgb lighting,dual vibration,turbo function,
    programmable buttons|color,style=device_style|15-120
electronics|Power Accessories>Power Banks|power bank,portable charger,battery pack|
    fast charging,high capacity,led display,dual usb,usb c,travel friendly|color,
    capacity=battery|12-80
fashion|Men>Clothing>Shirts>Dress Shirts|men's dress shirt,dress shirt,button down shirt|
    long sleeve,slim fit,wrinkle free,regular fit,button down,stretch fabric,cotton blend|color,
    size=apparel,fit type|16-60
fashion|Men>Clothing>Shirts>T-Shirts|men's t-shirt,t-shirt,graphic tee|short sleeve,crew neck,
    cotton blend,v neck,moisture wicking,regular fit|color,size=apparel,fit type|8-35
fashion|Men>Clothing>Pants|men's pants,chino pants,cargo pants,jogger pants|relaxed fit,
    straight leg,elastic waist,flat front,stretch fabric,multi pocket|color,size=pants,fit type|
    18-65
fashion|Men>Clothing>Jeans|men's jeans,denim jeans,jeans|slim fit,straight leg,relaxed fit,
    stretch denim,button fly,classic fit|color=denim_wash,size=pants,fit type|22-80
fashion|Men>Clothing>Jackets & Coats|men's jacket,winter coat,bomber jacket,rain jacket|
    water resistant,zip closure,detachable hood,fleece lined,windproof,quilted lining|color,
    size=apparel,fit type|30-160
fashion|Men>Clothing>Shorts|men's shorts,cargo shorts,swim trunks|elastic waist,quick dry,
    drawstring closure,mesh lining,multi pocket,relaxed fit|color,size=apparel,fit type|12-40
fashion|Men>Shoes>Sneakers|men's sneakers,running shoes,walking shoes|non slip,rubber sole,
    breathable mesh,memory foam,lace up,arch support|color,size=shoe|25-120
fashion|Men>Shoes>Boots|men's boots,work boots,chelsea boots|steel toe,waterproof,
    slip resistant,leather upper,rubber sole,ankle support|color,size=shoe|40-180
fashion|Women>Clothing>Dresses|women's dress,maxi dress,midi dress,cocktail dress|short sleeve,
    v neck,a line,floral print,high waist,flowy fabric,pockets|color,size=apparel,fit type|18-90
fashion|Women>Clothing>Tops & Blouses|women's blouse,tunic top,tank top,women's shirt|
    short sleeve,v neck,loose fit,chiffon fabric,button down,casual style|color,size=apparel,
    fit type|12-45
fashion|Women>Clothing>Leggings|women's leggings,yoga pants,workout leggings|high waist,
    tummy control,squat proof,four way stretch,moisture wicking,butt lift|color,size=apparel,
    fit type|12-45
fashion|Women>Clothing>Jeans|women's jeans,skinny jeans,mom jeans|high waist,skinny fit,
    stretch denim,distressed,button closure|color=denim_wash,size=pants,fit type|22-80
fashion|Women>Clothing>Sweaters|women's sweater,cardigan,pullover sweater|long sleeve,crew neck,
    cable knit,oversized fit,button front,soft knit|color,size=apparel,fit type|20-70
fashion|Women>Clothing>Swimsuits|women's swimsuit,bikini set,one piece swimsuit|tummy control,
    padded cups,adjustable straps,quick dry,high waist,tie side|color,size=apparel,fit type|
    16-55
fashion|Women>Clothing>Activewear|sports bra,workout set,running shorts|moisture wicking,
    removable pads,racerback design,quick dry,four way stretch|color,size=apparel,fit type|12-50
fashion|Women>Shoes>Sandals|women's sandals,flip flops,platform sandals,slide sandals|open toe,
    ankle strap,arch support,cushioned footbed,non slip,buckle closure|color,size=shoe|15-70
fashion|Women>Shoes>Heels|high heels,pumps,block heels,stiletto heels|pointed toe,ankle strap,
    slip on,comfortable heel,patent leather|color,size=shoe|25-95
fashion|Women>Shoes>Flats|ballet flats,loafers,women's flats|slip on,round toe,memory foam,
    flexible sole,pointed toe|color,size=shoe|18-70
fashion|Women>Handbags & Wallets|handbag,crossbody bag,tote bag,women's wallet|vegan leather,
    adjustable strap,zipper closure,multiple pockets,large capacity,rfid blocking|color,
    style=accessory_style|15-120
fashion|Women>Jewelry>Necklaces|necklace,pendant necklace,choker necklace|sterling silver,
    gold plated,hypoallergenic,adjustable chain,gift box,cubic zirconia|color=metal_color,
    style=accessory_style|12-90
fashion|Women>Jewelry>Earrings|earrings,stud earrings,hoop earrings|sterling silver,
    hypoallergenic,gold plated,cubic zirconia,nickel free,gift box|color=metal_color,
    style=accessory_style|8-60
fashion|Women>Jewelry>Rings|ring,engagement ring,stackable rings|sterling silver,cubic zirconia,
    rose gold plated,hypoallergenic,adjustable size|color=metal_color,size=ring|10-120
fashion|Novelty & More>Hats & Caps|baseball cap,beanie,sun hat,bucket hat|adjustable strap,
    uv protection,breathable mesh,one size,knit fabric,wide brim|color,style=accessory_style|
    8-35
fashion|Novelty & More>Socks|crew socks,ankle socks,compression socks|cushioned sole,
    moisture wicking,arch support,breathable cotton,no show|color=sock_color,size=apparel,
    item package quantity=count|8-30
fashion|Kids>Clothing|kids t-shirt,toddler dress,kids pajamas,kids hoodie|soft cotton,
    cartoon print,machine wash,snug fit,elastic waist|color,size=kids,fit type|8-35
fashion|Luggage & Travel Gear|luggage,backpack,duffel bag,carry on suitcase|spinner wheels,
    tsa lock,laptop compartment,water resistant,expandable,lightweight design|color,
    size=luggage|25-220
fashion|Men>Accessories>Watches|men's watch,wrist watch,quartz watch|stainless steel,
    water resistant,quartz movement,leather strap,date display,chronograph|color=metal_color,
    style=accessory_style|20-250
food|Snack Foods>Chips & Crisps|potato chips,tortilla chips,veggie chips,kettle chips|
    kettle cooked,sea salt,baked,whole grain,low sodium|flavor name,size=food_size|4-35
food|Snack Foods>Nuts & Seeds|mixed nuts,almonds,cashews,pistachios,trail mix|roasted salted,
    raw,unsalted,dry roasted,heart healthy,high fiber|flavor name=nut_flavor,size=food_size|7-45
food|Snack Foods>Jerky|beef jerky,turkey jerky,meat sticks|grass fed,high protein,
    no preservatives,teriyaki,smoked|flavor name=jerky_flavor,size=food_size|8-45
food|Snack Foods>Protein Bars|protein bar,granola bar,energy bar|high protein,low sugar,
    whole grain,chocolate chip,peanut butter,dairy free|flavor name,item package quantity=count|
    10-45
food|Snack Foods>Cookies|cookies,shortbread cookies,sandwich cookies|chocolate chip,
    butter cookies,soft baked,family size,whole wheat|flavor name,size=food_size|4-30
food|Candy & Chocolate>Chocolate|chocolate bar,dark chocolate,milk chocolate,chocolate truffles|
    dark chocolate,milk chocolate,fair trade,sea salt,caramel filled,gift box|flavor name,
    size=food_size|5-50
food|Candy & Chocolate>Gummies|gummy candy,gummy bears,sour candy|fruit flavored,sour coating,
    gelatin free,real fruit juice,fat free|flavor name,size=food_size|4-28
food|Beverages>Coffee|ground coffee,whole bean coffee,coffee pods,instant coffee|medium roast,
    dark roast,single origin,arabica beans,decaf,fair trade|flavor name=coffee_flavor,
    size=food_size|8-50
food|Beverages>Tea|green tea,black tea,herbal tea,matcha powder|caffeine free,loose leaf,
    tea bags,antioxidant rich,decaf|flavor name=tea_flavor,item package quantity=count|5-35
food|Beverages>Juices & Water|sparkling water,coconut water,fruit juice,electrolyte drink|
    zero calories,no sugar added,electrolytes,natural flavors,bpa free cans|flavor name,
    item package quantity=count|6-40
food|Beverages>Sports Drinks & Mixes|protein powder,drink mix,electrolyte powder,pre workout|
    whey protein,sugar free,muscle recovery,easy mixing,grass fed|flavor name,size=food_size|
    12-70
food|Pantry Staples>Pasta & Noodles|pasta,spaghetti,ramen noodles,rice noodles|whole wheat,
    gluten free,low carb,high fiber,quick cooking|size=food_size,item package quantity=count|
    3-30
food|Pantry Staples>Rice & Grains|rice,quinoa,oats,brown rice|whole grain,long grain,high fiber,
    microwavable,jasmine rice|size=food_size,item package quantity=count|4-40
food|Pantry Staples>Sauces|pasta sauce,hot sauce,bbq sauce,soy sauce|low sodium,no sugar added,
    extra hot,family recipe,small batch|flavor name=sauce_flavor,size=food_size|4-30
food|Pantry Staples>Condiments & Dressings|salad dressing,mayonnaise,ketchup,mustard|low fat,
    no sugar added,avocado oil,squeeze bottle,vegan mayo|flavor name,size=food_size|3-25
food|Pantry Staples>Spices & Seasonings|seasoning blend,ground cinnamon,black pepper,sea salt|
    salt free,gourmet spices,no msg,organic spices,grinder bottle|size=food_size,
    item package quantity=count|4-30
food|Pantry Staples>Oils & Vinegars|olive oil,avocado oil,coconut oil,balsamic vinegar|
    extra virgin,cold pressed,first cold press,unrefined,high heat cooking|size=food_size,
    item package quantity=count|6-40
food|Pantry Staples>Baking Supplies|baking mix,almond flour,cake mix,pancake mix|gluten free,
    keto friendly,almond flour,easy to make,low sugar|flavor name,size=food_size|4-30
food|Breakfast Foods>Cereal|cereal,granola,oatmeal cups|whole grain,high fiber,low sugar,
    heart healthy,added vitamins|flavor name,size=food_size|4-30
food|Breakfast Foods>Spreads|peanut butter,almond butter,honey,fruit jam|creamy,no stir,
    raw honey,no added sugar,crunchy|flavor name=spread_flavor,size=food_size|5-35
food|Dairy, Cheese & Eggs|cheese,cheese crisps,shelf stable milk,powdered milk|aged cheddar,
    lactose free,grass fed,shelf stable,high calcium|flavor name,size=food_size|5-40
food|Meat & Seafood|canned tuna,smoked salmon,canned chicken,sardines|wild caught,in olive oil,
    boneless skinless,high omega-3,no salt added|flavor name,item package quantity=count|6-55
food|Gift Baskets|gift basket,snack box,care package,holiday gift set|gourmet snacks,gift box,
    assorted variety,holiday gift,birthday gift|style=gift_style,item package quantity=count|
    20-95
food|Baby Foods|baby food pouches,baby formula,baby snacks,teething wafers|stage 1,
    no added sugar,organic ingredients,easy to digest,iron fortified|flavor name,
    item package quantity=count|8-45
furniture|Living Room Furniture>Sofas & Couches|sofa,loveseat,sectional couch,futon|mid century,
    velvet fabric,removable cushions,solid wood legs,convertible design|color,material type|
    180-990
furniture|Living Room Furniture>Chairs|accent chair,armchair,recliner chair,rocking chair|
    mid century,upholstered,solid wood legs,high back,swivel base,padded seat|color,
    material type|60-450
furniture|Living Room Furniture>Coffee Tables|coffee table,side table,end table,nesting tables|
    solid wood,tempered glass,storage shelf,lift top,round shape,rustic finish|color,
    size=table_size|40-300
furniture|Living Room Furniture>TV Stands|tv stand,media console,entertainment center|
    storage cabinet,cable management,open shelves,farmhouse style,led lights|color,
    size=table_size|60-400
furniture|Living Room Furniture>Bookcases|bookcase,bookshelf,ladder shelf,cube organizer|5 tier,
    open shelves,wall mounted,sturdy frame,industrial style|color,size=shelf_size|35-260
furniture|Bedroom Furniture>Beds & Frames|bed frame,platform bed,bunk bed,upholstered bed|
    queen size,no box spring needed,wood slats,headboard included,under bed storage|color,
    size=bed_size|120-900
furniture|Bedroom Furniture>Mattresses|mattress,memory foam mattress,mattress topper|
    memory foam,cooling gel,medium firm,pressure relief,motion isolation|size=bed_size,
    material type|90-900
furniture|Bedroom Furniture>Dressers|dresser,chest of drawers,nightstand|6 drawers,wood grain,
    anti tip,metal handles,smooth glide|color,size=drawer_count|60-450
furniture|Home Office Furniture>Desks|computer desk,standing desk,writing desk,l-shaped desk|
    height adjustable,monitor shelf,cable management,sturdy frame,keyboard tray|color,
    size=table_size|70-600
furniture|Home Office Furniture>Office Chairs|office chair,gaming chair,desk chair,
    ergonomic chair|lumbar support,adjustable height,breathable mesh,padded armrests,360 swivel,
    headrest|color,style=chair_style|60-450
furniture|Kitchen & Dining Room Furniture>Dining Sets|dining table set,dining table,
    kitchen table|seats 4,solid wood,extendable table,upholstered chairs,counter height|color,
    size=table_size|120-900
furniture|Kitchen & Dining Room Furniture>Bar Stools|bar stool,counter stool,kitchen stool|
    counter height,swivel seat,back support,footrest,faux leather|color,
    item package quantity=count|40-300
furniture|Entryway Furniture|shoe rack,coat rack,storage bench,hall tree|entryway storage,
    shoe storage,coat hooks,stackable,entry bench|color,size=shelf_size|25-200
furniture|Bathroom Furniture|bathroom cabinet,over the toilet storage,bathroom shelf|waterproof,
    wall mounted,adjustable shelves,mirror door,small space|color,material type|30-220
furniture|Kids' Furniture|kids table and chair set,toy storage organizer,kids bookshelf|
    rounded corners,non toxic paint,easy assembly,toy storage,kids room|color,material type|
    30-200
furniture|Game & Recreation Room Furniture|gaming desk,bean bag chair,floor chair|
    rgb led lights,memory foam,carbon fiber texture,cup holder,headphone hook|color,
    size=bag_size|40-350
furniture|Outdoor Furniture|patio furniture set,outdoor chair,porch swing,hammock|
    weather resistant,all weather wicker,outdoor cushions,rust resistant,uv resistant|color,
    material type|60-900
furniture|Accent Furniture>Ottomans|ottoman,storage ottoman,pouf,footstool|storage ottoman,
    velvet fabric,tufted design,round shape,faux leather|color,size=ottoman_size|25-180
furniture|Accent Furniture>Mirrors|wall mirror,full length mirror,vanity mirror|full length,
    wall mounted,metal frame,shatterproof,led lighted|color,size=mirror_size|25-260
furniture|Accent Furniture>Room Dividers|room divider,folding screen,privacy screen|
    folding panels,freestanding,privacy protection,portable design,partition wall|color,
    size=divider_panels|40-260
furniture|Storage & Organization>Storage Cabinets|storage cabinet,kitchen pantry cabinet,
    file cabinet|adjustable shelves,lockable doors,anti tip,kitchen pantry,large storage|color,
    material type|60-450
furniture|Storage & Organization>Closet Systems|closet organizer,clothes rack,wardrobe closet|
    heavy duty,adjustable shelves,hanging rod,non woven fabric,portable closet|color,
    size=shelf_size|25-250
"""
# fmt: on

#: Value pools of the option groups (lower case, as the original lower-cased option values).
# fmt: off
OPTION_POOLS: dict[str, tuple[str, ...]] = {
    "color": (
        "black", "white", "navy blue", "grey", "light grey", "charcoal", "red", "burgundy",
        "wine red", "pink", "hot pink", "rose gold", "purple", "lavender", "blue", "sky blue",
        "royal blue", "teal", "turquoise", "green", "olive green", "army green", "mint green",
        "yellow", "mustard", "orange", "coral", "brown", "coffee", "khaki", "beige", "ivory",
        "cream", "gold", "silver", "multicolor", "dark brown", "camel", "apricot", "clear",
    ),
    "apparel": (
        "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "3x-large",
        "4x-large", "5x-large",
    ),
    "shoe": (
        "6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12", "13",
        "7 wide", "9 wide", "11 wide",
    ),
    "pants": (
        "28w x 30l", "30w x 30l", "30w x 32l", "32w x 30l", "32w x 32l", "33w x 32l", "34w x 30l",
        "34w x 32l", "34w x 34l", "36w x 32l", "38w x 32l", "40w x 30l",
    ),
    "kids": (
        "2t", "3t", "4t", "5", "6", "7", "8", "10", "12", "14",
    ),
    "ring": (
        "5", "6", "7", "8", "9", "10",
    ),
    "luggage": (
        "carry-on 20 inch", "checked-medium 24 inch", "checked-large 28 inch", "3-piece set",
    ),
    "denim_wash": (
        "dark wash", "light wash", "medium wash", "black", "stone wash", "indigo", "grey",
        "vintage blue",
    ),
    "sock_color": (
        "black", "white", "grey", "assorted", "navy blue", "multicolor",
    ),
    "metal_color": (
        "gold", "silver", "rose gold", "white gold", "black", "two tone",
    ),
    "beauty_size": (
        "1 fl oz", "1.7 fl oz", "3.4 fl oz", "8 fl oz", "16 fl oz", "0.5 ounce", "2 ounce",
        "4 ounce (pack of 2)", "6.8 fl oz", "12 fl oz (pack of 3)",
    ),
    "shade": (
        "fair", "light", "light medium", "medium", "natural beige", "ivory", "nude", "warm sand",
        "tan", "deep", "cocoa", "berry", "rose", "coral", "red", "plum", "mauve",
    ),
    "palette": (
        "nude", "smoky", "warm tones", "cool tones", "rose gold", "neon", "earth tones",
    ),
    "lash_color": (
        "black", "brown", "very black", "black brown",
    ),
    "hair_color": (
        "jet black", "dark brown", "medium brown", "light brown", "dark blonde",
        "light ash blonde", "auburn", "burgundy", "copper red", "platinum",
    ),
    "nail_color": (
        "red", "nude", "pink", "coral", "black", "white", "glitter silver", "burgundy", "lavender",
        "mint green", "navy blue", "french tip",
    ),
    "scent": (
        "lavender", "vanilla", "coconut", "citrus", "eucalyptus mint", "rose", "unscented",
        "sandalwood", "fresh linen", "ocean breeze", "cherry blossom", "tea tree",
        "cucumber melon",
    ),
    "count": (
        "1 count", "2 count", "3 pack", "4 pack", "6 pack", "10 count", "12 count", "24 count",
        "50 count", "100 count",
    ),
    "fit type": (
        "regular", "big & tall", "slim", "petite", "plus size", "relaxed",
    ),
    "accessory_style": (
        "classic", "minimalist", "vintage", "sport", "statement", "everyday",
    ),
    "tool_style": (
        "standard", "travel kit", "professional", "deluxe set", "compact",
    ),
    "audio_style": (
        "standard", "pro", "with charging case", "gaming edition", "bundle",
    ),
    "device_style": (
        "standard", "pro", "bundle", "2-pack", "with remote", "usb-c", "plus",
    ),
    "phone_model": (
        "iphone 14", "iphone 15", "iphone 15 pro max", "galaxy s23", "galaxy s24 ultra", "pixel 8",
        "iphone 13 mini", "galaxy a54",
    ),
    "screen_size": (
        "24 inch", "27 inch", "32 inch", "43 inch", "50 inch", "55 inch", "65 inch", "75 inch",
    ),
    "capacity": (
        "32gb", "64gb", "128gb", "256gb", "512gb", "1tb", "2tb",
    ),
    "battery": (
        "5000mah", "10000mah", "20000mah", "26800mah",
    ),
    "band_size": (
        "38mm", "40mm", "41mm", "44mm", "45mm", "small | medium", "medium | large",
    ),
    "length": (
        "3 ft", "6 ft", "10 ft", "1 ft", "6.6 ft (2 pack)",
    ),
    "food_size": (
        "8 ounce", "12 ounce", "16 ounce (pack of 1)", "1.5 pound (pack of 2)", "24 ounce",
        "2 pound", "4.2 ounce (pack of 6)", "1 ounce (pack of 24)", "32 fl oz (pack of 2)",
        "5 pound",
    ),
    "flavor name": (
        "chocolate", "vanilla", "strawberry", "peanut butter", "salted caramel",
        "cookies and cream", "mixed berry", "lemon", "mango", "original", "cinnamon", "honey",
        "sea salt", "blueberry", "cherry", "variety pack", "coconut", "mint chocolate", "apple",
        "pumpkin spice",
    ),
    "nut_flavor": (
        "lightly salted", "honey roasted", "smoked", "unsalted", "sea salt", "chili lime",
    ),
    "jerky_flavor": (
        "original", "teriyaki", "peppered", "sweet and spicy", "hickory smoked",
    ),
    "coffee_flavor": (
        "french roast", "breakfast blend", "colombian", "hazelnut", "vanilla", "espresso roast",
        "house blend",
    ),
    "tea_flavor": (
        "peppermint", "chamomile", "earl grey", "jasmine", "ginger lemon", "english breakfast",
    ),
    "sauce_flavor": (
        "original", "garlic", "spicy", "marinara", "honey bbq", "habanero", "teriyaki",
    ),
    "spread_flavor": (
        "creamy", "crunchy", "strawberry", "raw wildflower", "chocolate hazelnut",
    ),
    "gift_style": (
        "classic", "deluxe", "premium", "sweet treats", "savory",
    ),
    "material type": (
        "wood", "metal", "fabric", "leather", "velvet", "linen", "rattan", "bamboo",
    ),
    "table_size": (
        "small", "medium", "large", "40 inch", "47 inch", "55 inch", "63 inch",
    ),
    "shelf_size": (
        "3 tier", "4 tier", "5 tier", "6 tier", "small", "large",
    ),
    "bed_size": (
        "twin", "full", "queen", "king", "california king",
    ),
    "drawer_count": (
        "3 drawer", "4 drawer", "5 drawer", "6 drawer", "9 drawer",
    ),
    "chair_style": (
        "with footrest", "without footrest", "mesh back", "high back", "standard",
    ),
    "bag_size": (
        "small", "medium", "large", "x-large",
    ),
    "ottoman_size": (
        "small", "medium", "large", "set of 2",
    ),
    "mirror_size": (
        "16 x 20 inch", "24 x 36 inch", "22 x 65 inch", "round 24 inch",
    ),
    "divider_panels": (
        "3 panel", "4 panel", "6 panel", "8 panel",
    ),
}
# fmt: on


@dataclass(frozen=True)
class Subcategory:
    """One query subcategory: where products of one 'scraped query' come from."""

    index: int
    top: str  # one of TOP_CATEGORIES
    breadcrumb: tuple[str, ...]  # root first
    nouns: tuple[str, ...]  # head noun phrases for titles; nouns[0] names the subcategory
    attributes: tuple[str, ...]  # subcategory attributes + the top category's shared ones
    own_attributes: int  # how many of ``attributes`` (the first ones) are the subcategory's own
    option_groups: tuple[tuple[str, str], ...]  # (group name, pool name)
    price_range: tuple[float, float]

    @property
    def query(self) -> str:
        """The query string products of this subcategory were 'scraped' under."""
        return self.nouns[0]

    @property
    def product_category(self) -> str:
        return BREADCRUMB_SEPARATOR.join(self.breadcrumb)


def _parse_table(table: str) -> tuple[Subcategory, ...]:
    subcategories = []
    entries: list[str] = []
    for line in table.strip().splitlines():
        if line.startswith(" "):  # a continuation of the entry above
            entries[-1] += line.strip()
        else:
            entries.append(line)
    for entry in entries:
        top, path, nouns, attributes, groups, prices = entry.split("|")
        low, high = (float(x) for x in prices.split("-"))
        option_groups = tuple(
            (name, pool or name) for name, _, pool in (g.partition("=") for g in groups.split(","))
        )
        own = tuple(attributes.split(","))
        shared = tuple(a for a in SHARED_ATTRIBUTES[top] if a not in own)
        subcategories.append(
            Subcategory(
                index=len(subcategories),
                top=top,
                breadcrumb=ROOT_BREADCRUMB[top] + tuple(path.split(">")),
                nouns=tuple(nouns.split(",")),
                attributes=own + shared,
                own_attributes=len(own),
                option_groups=option_groups,
                price_range=(low, high),
            )
        )
    return tuple(subcategories)


SUBCATEGORIES: tuple[Subcategory, ...] = _parse_table(SUBCATEGORY_TABLE)

#: Query subcategories held out of train/valid/test goals for the ``ood`` split (every 9th).
OOD_SUBCATEGORIES: frozenset[int] = frozenset(s.index for s in SUBCATEGORIES if s.index % 9 == 4)

#: Audience words that read as nouns in titles ("Men's ...").
AUDIENCE_NOUNS: dict[str, str] = {"men's": "men", "women's": "women", "kids": "kids"}
