"""The words the WebShop catalog generator draws from: category tree, attributes, options, text.

Everything here is invented for AgentGym (no text from the original WebShop data). The tree has
the original's five top categories; each query subcategory is one line of ``SUBCATEGORY_TABLE``:

    top | breadcrumb below the root | head nouns | attributes | option groups | price low-high

(an entry continues on indented lines).
The first head noun is the subcategory's query (the original's "scraped under" search term).

Attributes belong to their subcategory alone (no attributes are shared across a top category):
each entry lists 12-16 Amazon-style attribute phrases (lower case, without , | > =), and each of
them must fit every head noun of its entry ("face wash that is salicylic acid" is fine, "power
bank that is 120hz display" is not), so a product never carries an attribute foreign to it.

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

# fmt: off
SUBCATEGORY_TABLE = """
beauty|Hair Care>Shampoo & Conditioner|shampoo,conditioner,shampoo and conditioner set|sulfate free,
    argan oil,dry hair,color treated,tea tree,hair growth,damaged hair,paraben free,silicone free,
    frizz control,curly hair,salon quality,cruelty free,keratin treatment,coconut oil,
    natural ingredients,moisturizing,volumizing,biotin,dandruff relief,vegan formula,color safe,
    fine hair,daily use,ph balanced,strengthening,shine enhancing,dry scalp,split end repair,
    all hair types,jojoba oil,shea butter,aloe vera,rosemary oil,panthenol,hyaluronic acid,
    thick hair,wavy hair,oily scalp,sensitive scalp,detangling,heat protection,silk protein,
    clarifying,gluten free,dermatologist tested|scent,size=beauty_size|7-45
beauty|Hair Care>Styling Products|hair gel,styling cream,hair wax,pomade|strong hold,matte finish,
    natural shine,curly hair,water based,flexible hold,non greasy,alcohol free,long lasting,
    frizz control,all hair types,no residue,easy wash out,paraben free,travel size,medium hold,
    aloe vera,mens grooming,texturizing,humidity resistant,non flaky,short hair,vegan formula,
    cruelty free,slick back,all day hold,reworkable,easy styling,thick hair,high shine,light hold,
    barber approved,shea butter,argan oil,castor oil,jojoba oil,wavy hair,fine hair,long hair,
    silicone free,mineral oil free,fast drying,heat protection,pompadour,men and women|scent,
    size=beauty_size|6-30
beauty|Hair Care>Hair Loss Products|hair growth serum,hair loss treatment,biotin shampoo|
    hair growth,hair loss,thinning hair,biotin,rosemary oil,scalp care,dht blocker,hair thickening,
    caffeine infused,saw palmetto,paraben free,clinically tested,vegan formula,unisex formula,
    daily use,sulfate free,men and women,natural ingredients,keratin,argan oil,pumpkin seed oil,
    peppermint oil,follicle support,fuller looking hair,anti breakage,silicone free,cruelty free,
    non greasy,dermatologist tested,niacinamide,castor oil,ginseng extract,redensyl,collagen,
    aloe vera,hyaluronic acid,receding hairline,postpartum shedding,bald spots,tea tree oil,
    nettle extract,fine hair,scalp circulation,fragrance free,amino acids|size=beauty_size,
    item package quantity=count|12-60
beauty|Hair Care>Hair Coloring|hair dye,hair color kit,root touch up|permanent color,semi permanent,
    ammonia free,gray coverage,natural color,ppd free,fade resistant,easy application,
    conditioning formula,gloves included,salon results,fast acting,plant based,no drip,long lasting,
    cream formula,vegan formula,cruelty free,paraben free,resorcinol free,argan oil,keratin infused,
    at home,shine enhancing,low odor,men and women,rich pigment,brush applicator,peroxide free,
    sensitive scalp,aloe vera,coconut oil,avocado oil,shea butter,mess free,even coverage,
    dimensional color,multi-tonal,10 minute,uv protection,non toxic,dermatologist tested,
    soy protein,hypoallergenic|color=hair_color,item package quantity=count|5-28
beauty|Skin Care>Face>Moisturizers|face moisturizer,day cream,night cream,face lotion|
    hyaluronic acid,dry skin,oily skin,anti aging,fine lines,vitamin c,ceramide complex,
    peptide complex,non comedogenic,fragrance free,sensitive skin,squalane,dermatologist tested,
    all skin types,lightweight formula,niacinamide,retinol,shea butter,paraben free,cruelty free,
    oil free,collagen,wrinkle repair,24 hour hydration,glycerin,vitamin e,combination skin,
    barrier repair,hypoallergenic,mature skin,aloe vera,jojoba oil,green tea extract,
    centella asiatica,bakuchiol,whipped texture,korean skincare,vegan formula,firming,brightening,
    redness relief,snail mucin,allantoin,dull skin,rosehip oil|size=beauty_size,
    item package quantity=count|9-70
beauty|Skin Care>Face>Serums|face serum,vitamin c serum,retinol serum|vitamin c,hyaluronic acid,
    retinol,dark spots,anti aging,fine lines,niacinamide,dropper bottle,quick absorbing,brightening,
    uneven skin tone,paraben free,cruelty free,vegan formula,ferulic acid,vitamin e,collagen boost,
    wrinkle reduction,hydrating,non comedogenic,fragrance free,oil free,dermatologist tested,
    sensitive skin,all skin types,lightweight texture,pore refining,radiant glow,firming,
    hyperpigmentation,sun damage,peptides,squalane,bakuchiol,aloe vera,green tea extract,ceramides,
    mature skin,dry skin,oily skin,combination skin,acne scars,am and pm,korean skincare,
    amber glass|size=beauty_size,item package quantity=count|10-65
beauty|Skin Care>Face>Cleansers|face wash,facial cleanser,cleansing foam|oily skin,acne prone,
    deep cleansing,salicylic acid,gentle formula,pore minimizing,ph balanced,soap free,tea tree oil,
    sensitive skin,makeup removal,non drying,fragrance free,hydrating,daily use,foaming,
    hyaluronic acid,niacinamide,ceramides,paraben free,sulfate free,oil free,non comedogenic,
    dermatologist tested,dry skin,combination skin,vitamin c,aloe vera,cruelty free,glycolic acid,
    charcoal,green tea extract,centella asiatica,blackhead removal,exfoliating,sebum control,
    brightening,mature skin,normal skin,vegan formula,korean skincare,chamomile,glycerin,rice water,
    travel size|size=beauty_size,item package quantity=count|6-35
beauty|Skin Care>Face>Masks|face mask,sheet mask,clay mask|deep cleansing,hydrating,collagen,
    charcoal,pore minimizing,brightening,soothing,aloe vera,green tea extract,oil control,
    skin firming,korean skincare,all skin types,paraben free,hyaluronic acid,vitamin c,niacinamide,
    vegan formula,cruelty free,anti aging,acne prone,sensitive skin,dull skin,fragrance free,
    nourishing,spa treatment,self care,natural ingredients,detoxifying,oily skin,dry skin,
    combination skin,centella asiatica,snail mucin,tea tree,honey,ceramides,peptides,salicylic acid,
    10 minute,weekly treatment,glass skin,radiant glow,mature skin|item package quantity=count,
    color|8-40
beauty|Skin Care>Eyes|eye cream,eye patches,under eye gel|dark circles,puffy eyes,fine lines,
    caffeine,collagen,anti aging,cooling effect,hyaluronic acid,vitamin k,peptides,
    ophthalmologist tested,fragrance free,green tea,sensitive skin,retinol,niacinamide,vitamin c,
    crows feet,wrinkle reduction,brightening,depuffing,paraben free,cruelty free,hydrating,firming,
    eye bags,aloe vera,dermatologist tested,squalane,shea butter,ceramides,bakuchiol,
    cucumber extract,mature skin,dry skin,tired eyes,lightweight formula,non greasy,korean skincare,
    vegan formula,am and pm,hypoallergenic,vitamin e,non comedogenic|size=beauty_size,
    item package quantity=count|9-50
beauty|Skin Care>Body>Lotions|body lotion,body butter,body cream|shea butter,dry skin,cocoa butter,
    non greasy,coconut oil,fast absorbing,aloe vera,vitamin e,24 hour moisture,eczema relief,
    fragrance free,paraben free,natural ingredients,jojoba oil,sensitive skin,hyaluronic acid,
    ceramides,colloidal oatmeal,whipped texture,cruelty free,vegan formula,dermatologist tested,
    hypoallergenic,argan oil,glycerin,skin firming,almond oil,dye free,all skin types,mango butter,
    rough skin,cracked skin,crepey skin,urea,lactic acid,niacinamide,squalane,stretch marks,
    after shower,mature skin,avocado oil,sunflower oil,aromatherapy,silky finish,family size|scent,
    size=beauty_size|6-32
beauty|Skin Care>Sunscreens|sunscreen,sunscreen lotion,sunscreen spray|spf 50,water resistant,
    broad spectrum,reef safe,mineral formula,oil free,zinc oxide,non greasy,sweat resistant,
    no white cast,oxybenzone free,fragrance free,sport formula,hypoallergenic,travel size,spf 30,
    titanium dioxide,uva uvb protection,lightweight,fast absorbing,sensitive skin,face and body,
    paraben free,vegan formula,dermatologist tested,vitamin e,non comedogenic,cruelty free,
    aloe vera,spf 70,kids and adults,family size,beach,outdoor activities,hyaluronic acid,
    niacinamide,octinoxate free,tear free,daily protection,antioxidants,sheer finish,oily skin,
    dry skin,green tea extract,sunburn prevention|size=beauty_size,item package quantity=count|7-35
beauty|Makeup>Face>Foundation|foundation,liquid foundation,cushion foundation|full coverage,
    matte finish,oil free,buildable coverage,natural finish,long wear,dewy finish,spf protection,
    lightweight formula,transfer resistant,sweat proof,non comedogenic,cruelty free,all skin types,
    fragrance free,hyaluronic acid,vegan formula,paraben free,oily skin,dry skin,mature skin,
    waterproof,satin finish,poreless look,blurring effect,hydrating,talc free,dermatologist tested,
    niacinamide,medium coverage,radiant glow,warm undertone,cool undertone,neutral undertone,
    oil control,combination skin,sensitive skin,acne prone,squalane,vitamin e,humidity resistant,
    silicone free,photo ready,flash friendly,mask proof|color=shade,item package quantity=count|8-55
beauty|Makeup>Face>Concealers|concealer,color corrector|full coverage,dark circles,creamy texture,
    crease proof,long wear,brightening,blemish coverage,redness correcting,matte finish,
    lightweight formula,waterproof,easy blending,non comedogenic,cruelty free,under eye,
    hyaluronic acid,vegan formula,paraben free,oil free,fragrance free,talc free,buildable,
    natural finish,dark spots,all skin types,sensitive skin,hydrating,transfer proof,acne scars,
    hyperpigmentation,discoloration,mature skin,oily skin,dry skin,doe foot applicator,sweat proof,
    satin finish,vitamin e,squalane,rosacea,photo ready,smudge proof,oil control,tattoo coverage,
    age defying|color=shade,item package quantity=count|6-30
beauty|Makeup>Eyes>Eyeshadow|eyeshadow palette,eyeshadow,eye shadow stick|highly pigmented,shimmer,
    matte finish,blendable,long wear,glitter,crease proof,smudge resistant,metallic finish,
    talc free,vegan formula,cruelty free,easy to apply,travel size,paraben free,waterproof,
    satin finish,buttery texture,minimal fallout,everyday look,gluten free,ophthalmologist tested,
    sensitive eyes,duochrome,fragrance free,professional makeup,hypoallergenic,vibrant colors,
    smoky eye,cut crease,halo eye,bridal makeup,party makeup,festival makeup,pearl finish,
    foil finish,mineral pigments,vitamin e,date night,beginner friendly,hooded eyes,mature eyes,
    dramatic look,natural look|color=palette,item package quantity=count|6-48
beauty|Makeup>Eyes>Mascara|mascara,lash primer|waterproof,lengthening,volumizing,smudge proof,
    clump free,flake free,curl holding,lash nourishing,sensitive eyes,ophthalmologist tested,
    long wear,easy removal,vegan formula,paraben free,cruelty free,thickening,lifting,defining,
    lash growth,keratin,biotin,fragrance free,curved brush,castor oil,gluten free,separating,
    buildable,hypoallergenic,serum infused,peptides,panthenol,vitamin e,contact lens safe,
    short lashes,straight lashes,sparse lashes,false lash effect,sweat proof,humidity proof,
    silicone brush,natural look,argan oil,beeswax,everyday makeup|color=lash_color,
    item package quantity=count|5-28
beauty|Makeup>Lips>Lipstick|lipstick,lip gloss,liquid lipstick,lip stain|long wear,moisturizing,
    vitamin e,highly pigmented,lightweight feel,non sticky,plumping effect,hyaluronic acid,
    shea butter,jojoba oil,cruelty free,vegan formula,paraben free,gluten free formula,
    natural ingredients,transfer proof,waterproof,creamy texture,hydrating,avocado oil,coconut oil,
    non drying,fragrance free,buildable color,kiss proof,mango butter,smudge proof,lip care,
    everyday wear,nude shades,bold color,rosehip oil,cocoa butter,beeswax,castor oil,peptides,
    date night,wedding makeup,party makeup,mask proof,all skin tones,spf 15,travel friendly,
    vitamin c,aloe vera|color=shade,item package quantity=count|5-32
beauty|Makeup>Makeup Remover|makeup remover,micellar water,cleansing balm|waterproof makeup,
    gentle formula,sensitive eyes,fragrance free,alcohol free,hydrating,all skin types,
    double cleansing,vitamin e,rose water,paraben free,dermatologist tested,travel size,no residue,
    green tea extract,cruelty free,vegan formula,non comedogenic,sensitive skin,soothing,
    hyaluronic acid,aloe vera,chamomile,sunscreen removal,ophthalmologist tested,ph balanced,
    deep cleansing,nourishing,long wear makeup,eye makeup,cucumber extract,glycerin,niacinamide,
    oily skin,dry skin,combination skin,mature skin,acne prone,korean skincare,sulfate free,
    soap free,contact lens wearers,pore cleansing,ceramides,face and eyes|size=beauty_size,
    item package quantity=count|5-25
beauty|Foot, Hand & Nail Care>Nail Polish|nail polish,gel nail polish,nail polish set|quick dry,
    gel polish,chip resistant,high gloss,nail art,long lasting,non toxic,formaldehyde free,
    toluene free,cruelty free,vegan formula,salon quality,easy application,diy manicure,10 free,
    dbp free,breathable formula,one coat,pedicure,opaque coverage,shimmer finish,streak free,
    rich pigment,gift idea,home use,fade resistant,self-leveling,smooth finish,glass bottle,
    wide brush,spring colors,fall colors,holiday colors,pastel shades,neutral shades,cream finish,
    jelly finish,camphor free,xylene free,hema free,nail strengthening,wedding nails,vitamin e,
    glitter polish|color=nail_color,item package quantity=count|5-35
beauty|Foot, Hand & Nail Care>Nail Tools|nail clipper,nail file,cuticle pusher,manicure set|
    stainless steel,easy carry,professional grade,ergonomic grip,rust resistant,non slip handle,
    salon quality,home use,durable construction,precision design,lightweight design,easy to clean,
    unisex design,gift idea,manicure,pedicure,nail care,travel friendly,portable,fingernails,
    toenails,thick nails,hand polished,high hardness,sterilizable,beginner friendly,reusable,
    cuticle care,carbon steel,surgical grade,seniors,kids,men and women,compact size,hygienic,
    heavy duty,natural nails,acrylic nails,nail salon,self care,chrome finish,smooth edges,
    personal grooming,hangnails|color,style=tool_style|5-30
beauty|Tools & Accessories>Makeup Brushes|makeup brush set,makeup brush,beauty sponge|easy clean,
    travel case,latex free,cruelty free,vegan friendly,streak free,seamless blending,reusable,
    soft touch,professional makeup,odor free,quick drying,liquid and powder,beginner friendly,
    foundation,concealer,contour,airbrush finish,hypoallergenic,eco friendly,precision application,
    full coverage,cream products,gentle on skin,durable,gift idea,everyday makeup,non toxic,blush,
    highlighter,bronzer,setting powder,eyeshadow,bb cream,dewy finish,makeup artist,bridal makeup,
    mature skin,washable,synthetic,sensitive skin,travel friendly,color correcting,
    tinted moisturizer|color,item package quantity=count|6-40
beauty|Fragrance>Perfume|perfume,eau de parfum,body mist|floral scent,long lasting fragrance,
    fresh scent,vanilla scent,woody scent,citrus notes,musky scent,fruity scent,unisex scent,
    spray bottle,glass bottle,travel size,gift set,phthalate free,cruelty free,for women,for men,
    amber notes,jasmine notes,gourmand,sweet scent,paraben free,vegan,date night,everyday wear,
    signature scent,fine mist,summer fragrance,patchouli,rose notes,oud,sandalwood notes,bergamot,
    white musk,powdery scent,aquatic scent,spicy scent,fall fragrance,night out,peony,tonka bean,
    pink pepper,clean scent,designer inspired,luxury fragrance|scent,size=beauty_size|12-95
beauty|Personal Care>Oral Care|toothpaste,electric toothbrush,teeth whitening kit,water flosser|
    sensitive teeth,fresh breath,plaque removal,gum health,dentist recommended,enamel safe,
    deep clean,clinically proven,ada accepted,cavity protection,professional results,daily use,
    easy to use,travel friendly,teeth whitening,stain removal,oral hygiene,tartar control,
    braces friendly,adults and kids,home use,gentle on gums,dental care,gingivitis,bright smile,
    tooth decay prevention,dental implants,mint fresh,sensitive gums,bleeding gums,coffee stains,
    smokers,crowns and bridges,orthodontic care,family use,periodontal care,gum recession,
    enamel repair,yellow teeth,veneers,bpa free,interdental cleaning,dry mouth,halitosis|color,
    item package quantity=count|5-80
beauty|Personal Care>Shaving & Hair Removal|razor,electric shaver,hair removal cream,beard trimmer|
    sensitive skin,no irritation,smooth skin,facial hair,body hair,ingrown hair prevention,painless,
    easy to use,quick results,travel friendly,home use,men and women,dermatologist tested,
    long lasting,close shave,personal grooming,full body,bikini area,underarms,legs,coarse hair,
    fine hair,stubble,mens grooming,skin friendly,even results,gentle shave,nick free,aloe vera,
    vitamin e,razor burn,razor bumps,chest hair,back hair,upper lip,chin,dark hair,thick hair,
    neckline,soothing,moisturizing,sensitive areas,hypoallergenic,fragrance free|color,
    style=tool_style|8-90
beauty|Personal Care>Deodorants|deodorant,antiperspirant,deodorant stick|48 hour protection,
    baking soda free,odor protection,long lasting,no white marks,sensitive skin,fresh scent,
    paraben free,alcohol free,clinical strength,quick drying,dermatologist tested,smooth glide,
    travel size,for men,for women,unisex,vegan,cruelty free,non sticky,no yellow stains,shea butter,
    aloe vera,vitamin e,active lifestyle,everyday use,dye free,hypoallergenic,invisible solid,
    coconut oil,charcoal,teens,athletes,cooling,clean scent,recyclable packaging,refillable,
    twist up,essential oils,underarm care,post workout,hot weather,all day freshness,gym bag|scent,
    item package quantity=count|5-22
electronics|Headphones>Over-Ear Headphones|headphones,over-ear headphones,gaming headset|
    noise cancelling,over ear,built-in microphone,hi-fi sound,foldable design,memory foam,
    wireless bluetooth,deep bass,adjustable headband,long battery life,low latency,surround sound,
    protein leather,aux input,lightweight design,volume control,usb c charging,fast charging,
    detachable cable,noise isolation,40mm drivers,multipoint connection,soft ear cushions,
    stereo sound,hands free calling,wired and wireless,carrying case,travel friendly,
    comfortable fit,bluetooth 5,transparency mode,app control,custom eq,spatial audio,closed back,
    60 hour playtime,voice assistant,swivel ear cups,work from home,online classes,hi-res audio,
    noise reduction mic,pc compatible,metal hinges,braided cable|color,style=audio_style|18-300
electronics|Headphones>Earbuds|earbuds,wireless earbuds,in-ear headphones|true wireless,
    noise cancelling,charging case,sweat resistant,touch control,stereo sound,bluetooth 5.3,
    built-in microphone,deep bass,secure fit,low latency,long playtime,one touch pairing,
    fast charging,ear tips included,ipx7 waterproof,transparency mode,hi-fi sound,usb c charging,
    lightweight design,ergonomic design,voice assistant,hands free calling,led display,workout,
    running,multipoint connection,auto pairing,gaming mode,wireless charging,spatial audio,
    app control,custom eq,in-ear detection,gym,commuting,small ears,10mm drivers,hi-res audio,
    aac codec,mono mode,iphone compatible,android compatible,40 hour playtime,memory foam tips|
    color,style=audio_style|12-200
electronics|Portable Audio>Bluetooth Speakers|bluetooth speaker,portable speaker,smart speaker|
    stereo sound,deep bass,voice assistant,360 degree sound,loud volume,wireless bluetooth,
    compact size,hands free calling,stereo pairing,built-in microphone,aux input,
    crystal clear sound,app control,fabric finish,usb c charging,wifi connectivity,multi room,
    music streaming,home use,outdoor use,party mode,hi-fi audio,lightweight,smart home control,
    long battery life,led lights,ipx7 waterproof,equalizer,bluetooth 5,custom eq,passive radiators,
    dual drivers,spotify connect,airplay 2,google assistant,alexa built-in,camping,beach,kitchen,
    bedroom,20 watt,dustproof,rugged design,backyard|color,style=device_style|15-220
electronics|Home Audio>Soundbars|soundbar,sound bar,home theater system|dolby atmos,subwoofer,
    hdmi arc,wall mountable,surround sound,optical input,bluetooth streaming,dialogue enhancement,
    remote control included,night mode,5.1 channel,easy setup,deep bass,dts virtual x,
    voice assistant,wifi streaming,usb input,tv speaker,movie mode,music mode,3d audio,
    built-in tweeters,coaxial input,alexa compatible,airplay 2,center channel,cinematic sound,
    low profile design,4k passthrough,chromecast built-in,spotify connect,google assistant,
    room calibration,rear speakers,up-firing drivers,dolby digital,gaming mode,living room,
    apartment friendly,auto volume leveling,metal grille,hdmi cec,300 watt,smart tv compatible|
    style=audio_style,color|50-400
electronics|Television & Video>Televisions|smart tv,led tv,television|4k ultra hd,smart tv,hdr,
    voice remote,dolby vision,wall mount,120hz display,streaming apps,hdmi 2.1,game mode,
    quantum dot,slim bezel,dolby audio,energy efficient,alexa compatible,led backlight,
    local dimming,wifi connectivity,bluetooth,google assistant,apple airplay,motion smoothing,
    wide color gamut,built-in speakers,screen mirroring,parental controls,ai upscaling,hdmi arc,
    vrr support,dolby atmos,usb ports,ethernet port,chromecast built-in,free live channels,
    tabletop stand,hdmi cec,allm support,filmmaker mode,sports mode,freesync premium,living room,
    bedroom,wide viewing angle,digital tuner,anti reflection|size=screen_size,style=device_style|
    120-900
electronics|Television & Video>TV Mounts|tv wall mount,tv mount,tv stand mount|full motion,
    tilt and swivel,heavy duty,vesa compatible,cable management,easy install,universal fit,
    low profile,cold rolled steel,mounting hardware,weight capacity,powder coated,safety lock,
    space saving,flat screen,curved tv,oled tv,lcd tv,ul listed,height adjustable,bubble level,
    anti theft,steel construction,post install leveling,sturdy design,viewing angle,living room,
    bedroom,vesa 600x400,qled tv,plasma tv,4k tv,quick release,anti tip,tool-free assembly,
    commercial use,conference room,game room,kitchen,matte black,office,classroom,hotel,
    rust resistant|size=screen_size,style=device_style|15-90
electronics|Television & Video>Streaming Devices|streaming stick,streaming media player,hdmi dongle|
    4k ultra hd,voice remote,dolby vision,hdr,high speed,wifi 6,dolby atmos,plug and play,
    usb powered,screen mirroring,live tv,parental controls,private listening,compact size,
    easy setup,alexa built-in,google assistant,apple airplay,free channels,hdmi connection,1080p,
    tv controls,cord cutting,ethernet support,quad core processor,cloud gaming,app store,
    voice search,travel friendly,netflix,youtube,prime video,bluetooth connectivity,
    chromecast built-in,dorm room,older tvs,hdmi extender,remote finder,sports streaming,
    8gb storage,dual band wifi,guest mode,kids profiles,dolby digital,bedroom tv|style=device_style,
    color|25-120
electronics|Computers>Laptops|laptop,notebook computer,chromebook|intel core,solid state drive,
    full hd,backlit keyboard,long battery life,touch screen,fingerprint reader,ultra thin,hd webcam,
    wifi 6,usb c port,16gb ram,anti glare display,fast charging,metal chassis,8gb ram,hdmi port,
    ips display,lightweight,students,business use,stereo speakers,sd card reader,
    integrated graphics,privacy shutter,numeric keypad,home office,bluetooth 5,2 in 1,
    online classes,family use,remote work,video conferencing,web browsing,dolby audio,
    spill resistant,usb 3,headphone jack,narrow bezel,180 degree hinge,energy star,seniors,portable,
    14 inch,cloud storage|capacity,color|250-990
electronics|Computers>Tablets|tablet,android tablet,drawing tablet|stylus pen,full hd,large display,
    portable design,lightweight,usb c,palm rejection,bluetooth connectivity,eye protection,
    protective case,slim profile,note taking,digital art,online learning,pressure sensitivity,
    octa core,wifi connectivity,long battery life,expandable storage,tilt support,graphic design,
    photo editing,sketching,animation,anti glare,ips screen,laminated display,home office,
    8192 pressure levels,windows compatible,mac compatible,express keys,left handed,beginners,
    students,kids,comic art,illustration,3d modeling,video editing,fast charging,paper-like texture,
    remote teaching,entertainment|capacity,color|60-700
electronics|Computers>Monitors|monitor,gaming monitor,computer monitor|full hd,ips panel,
    144hz refresh rate,eye care,hdmi port,frameless design,freesync compatible,1ms response time,
    vesa mountable,tilt adjustable,built-in speakers,curved screen,wide viewing angle,hdr10,
    displayport,4k uhd,qhd resolution,165hz,g-sync compatible,flicker free,low blue light,
    height adjustable,pivot rotation,anti glare,headphone jack,office use,adaptive sync,
    100 percent srgb,dual monitor setup,usb c input,kvm switch,daisy chain,swivel stand,
    picture in picture,kensington lock,cable management,ps5 compatible,color accuracy,photo editing,
    video editing,programming,stock trading,home office,energy star,dci-p3 coverage|
    size=screen_size,style=device_style|90-600
electronics|Computers>Keyboards & Mice|keyboard,wireless mouse,mechanical keyboard,
    keyboard and mouse combo|rgb backlit,ergonomic design,silent click,rechargeable battery,
    usb receiver,plug and play,wireless bluetooth,multi device,windows and mac,2.4ghz wireless,
    low profile,long battery life,office use,auto sleep,anti slip base,gaming,usb c charging,
    compact design,laptop compatible,chromebook compatible,programmable,dual mode,low latency,
    battery indicator,ipad compatible,durable build,on off switch,lightweight,smart tv compatible,
    linux compatible,android compatible,desktop pc,macbook compatible,home office,students,
    remote work,travel friendly,abs plastic,matte finish,energy saving,coding,data entry,dorm room,
    seniors,streaming setup|color,style=device_style|12-150
electronics|Computers>Data Storage|external hard drive,usb flash drive,memory card,portable ssd|
    high speed,shockproof,plug and play,large capacity,compact size,data backup,windows and mac,
    backward compatible,pocket size,reliable storage,file transfer,photo storage,durable design,
    lightweight,usb 3,usb c,password protection,hardware encryption,video storage,waterproof,
    temperature proof,x-ray proof,gaming consoles,android compatible,linux compatible,drag and drop,
    dustproof,laptop compatible,ps5 compatible,macbook compatible,ipad compatible,
    4k video recording,anti magnetic,exfat formatted,3 year warranty,photographers,content creators,
    students,music library,school projects,business files,media files,smart tv compatible,
    raw photos|capacity,color|8-260
electronics|Computers>Networking|wifi router,mesh wifi system,wifi extender,network switch|
    gigabit ethernet,easy setup,plug and play,ethernet ports,home network,small business,
    stable connection,high speed,low latency,energy efficient,led indicator,compact design,
    online gaming,heat dissipation,wifi 6,dual band,whole home coverage,wpa3 security,
    app management,parental controls,beamforming,qos,wall mountable,4k streaming,long range,
    smart home,metal housing,vpn support,tri band,mu-mimo,ofdma,fanless design,guest network,
    firmware updates,work from home,video conferencing,apartment,iot devices,gaming consoles,
    security cameras,firewall,multiple devices,power adapter included,heavy traffic|
    style=device_style,color|25-350
electronics|Computers>Webcams|webcam,web camera,streaming camera|full hd,built-in microphone,
    auto focus,privacy cover,wide angle,plug and play,1080p video,low light correction,
    noise reduction,usb powered,clip mount,video calls,live streaming,60fps,4k resolution,
    tripod mount,dual microphones,zoom compatible,obs compatible,360 degree rotation,face tracking,
    ai framing,windows and mac,background blur,online classes,glass lens,hdr mode,remote work,
    teams compatible,skype compatible,google meet,auto exposure,auto white balance,digital zoom,
    cmos sensor,chromebook compatible,conference room,content creators,twitch,telehealth,
    job interviews,color correction,30fps,long usb cable|color,style=device_style|18-120
electronics|Cell Phones & Accessories>Cases|phone case,protective case,wallet case|shockproof,
    slim fit,wireless charging compatible,card holder,drop protection,kickstand,raised edges,
    military grade,magsafe compatible,precise cutouts,scratch resistant,non slip grip,tpu bumper,
    camera protection,pu leather,wrist strap,rfid blocking,magnetic closure,anti yellowing,
    screen protector,polycarbonate,lanyard,fingerprint resistant,lightweight,air cushion corners,
    cute design,dustproof,full body,genuine leather,microfiber lining,marble design,floral design,
    men and women,girls,ring holder,drop tested,button covers,business style,bling,biodegradable,
    antimicrobial,heavy duty,snap on,tempered glass|color,style=phone_model|6-40
electronics|Cell Phones & Accessories>Chargers|phone charger,wireless charger,car charger,
    charging station|fast charging,usb c,multiple devices,overcharge protection,overheat protection,
    compact design,led indicator,universal compatibility,cable included,travel friendly,
    fireproof material,iphone compatible,samsung compatible,energy efficient,power delivery,
    qi certified,gan technology,dual port,short circuit protection,airpods compatible,
    android compatible,pixel compatible,ul certified,quick charge,usb a,20w output,home and office,
    lightweight,apple watch compatible,magsafe compatible,ipad compatible,kindle compatible,
    surge protection,smart chip,pps support,65w output,fcc certified,etl listed,family use,
    aluminum alloy,overcurrent protection,sleek design,daily commute,heat dissipation|color,
    style=device_style|8-60
electronics|Cell Phones & Accessories>Cables|charging cable,usb c cable,lightning cable,hdmi cable|
    braided nylon,tangle free,gold plated,high speed,aluminum housing,strain relief,
    reinforced connectors,shielded design,flexible cord,long cable,plug and play,durable design,
    lifetime warranty,slim connector,oxygen free copper,pvc jacket,velcro strap,fray resistant,
    bend tested,corrosion resistant,heat resistant,universal compatibility,data transfer,
    stable signal,interference free,home office,car use,premium materials,right angle,kevlar core,
    zinc alloy,tpe coating,thick gauge,molded connector,ul certified,rohs compliant,reversible plug,
    travel size,laptop compatible,tablet compatible,gaming setup,desk setup,cable tie,multi pack|
    length,color|5-30
electronics|Cell Phones & Accessories>Screen Protectors|screen protector,tempered glass,
    privacy screen|bubble free,9h hardness,case friendly,easy install,anti glare,scratch resistant,
    fingerprint resistant,hd clarity,touch sensitive,alignment frame,shatter resistant,ultra thin,
    full coverage,oleophobic coating,installation kit,cleaning cloth,dust absorber,rounded edges,
    high transparency,anti smudge,edge to edge,impact protection,easy removal,no residue,
    face id compatible,smooth glide,anti blue light,lifetime replacement,aluminosilicate,
    explosion proof,dust proof,alcohol wipes,guide stickers,precise cutouts,military grade,
    asahi glass,fingerprint unlock,matte finish,self adhesive,anti peel,hydrophobic layer,
    iphone compatible,samsung compatible,gaming friendly|style=phone_model,
    item package quantity=count|5-25
electronics|Camera & Photo>Digital Cameras|digital camera,vlogging camera,action camera|4k video,
    image stabilization,wide angle,flip screen,high resolution,touch screen,mic input,
    wifi connectivity,time lapse,slow motion,auto focus,live streaming,sd card included,
    compact size,beginner friendly,digital zoom,rechargeable battery,hdmi output,webcam mode,
    face detection,bluetooth,tripod mount,burst mode,night mode,loop recording,usb charging,
    48mp photos,lightweight body,built-in microphone,optical zoom,cmos sensor,macro mode,
    beauty mode,self timer,hdr mode,extra battery,built-in flash,ips display,large aperture,
    1080p video,carrying case,hand strap,vertical video,content creators,gift for teens|color,
    style=device_style|60-800
electronics|Camera & Photo>Security Cameras|security camera,doorbell camera,baby monitor|
    night vision,motion detection,two-way audio,cloud storage,1080p hd,app control,local storage,
    real time alerts,wide viewing angle,easy setup,no subscription,live view,alexa compatible,
    secure encryption,2k resolution,wifi enabled,sd card slot,sound detection,person detection,
    google assistant,smart home,privacy mode,infrared leds,activity zones,event recording,
    multi user access,plug in power,rechargeable battery,pan tilt,siren alarm,auto tracking,
    digital zoom,h265 compression,home security,renter friendly,snapshot capture,timeline playback,
    low latency,wall mount,pet monitoring,fcc certified,free app,indoor use,diy installation|
    style=device_style,item package quantity=count|25-250
electronics|Wearable Technology>Smartwatches|smartwatch,fitness tracker,smart watch band|
    water resistant,adjustable strap,soft silicone,quick release,sweat proof,breathable design,
    lightweight,comfortable fit,sport style,skin friendly,interchangeable strap,men and women,
    durable design,daily wear,stainless steel buckle,hypoallergenic,tool free install,
    outdoor sports,gym workout,unisex design,slim profile,scratch resistant,secure fit,
    easy to clean,anti slip,odor resistant,fashion accessory,textured pattern,fluoroelastomer,
    nylon loop,magnetic clasp,milanese loop,apple watch compatible,fitbit compatible,
    galaxy watch compatible,sport band,braided loop,vegan leather,titanium,swimming,cycling,hiking,
    teens and adults,butterfly clasp|color,size=band_size|18-300
electronics|Video Games>Gaming Accessories|game controller,gaming mouse,controller charging dock|
    rgb lighting,plug and play,usb c,led indicator,compact design,durable build,lightweight,
    easy setup,sleek design,gamer gift,matte black,abs plastic,fast charging,pc compatible,
    multi platform,ergonomic design,anti slip,overcharge protection,rechargeable battery,
    braided cable,detachable cable,competitive gaming,desk setup,long battery life,smooth finish,
    textured grip,premium quality,ps5 compatible,xbox compatible,nintendo switch,low latency,
    bluetooth 5,programmable buttons,magnetic connection,rubber feet,esports,streaming setup,
    game room,translucent shell,heat dissipation,short circuit protection,firmware updates,
    cable management|color,style=device_style|15-120
electronics|Power Accessories>Power Banks|power bank,portable charger,battery pack|fast charging,
    high capacity,led display,dual usb,usb c,travel friendly,20w pd,airline approved,slim design,
    built-in cables,wireless charging,overcharge protection,pass through charging,multiple devices,
    pocket size,lithium polymer,quick charge,iphone compatible,samsung compatible,
    short circuit protection,temperature control,universal compatibility,emergency backup,
    camping trips,compact design,low current mode,battery level indicator,fireproof shell,
    power delivery,magsafe compatible,built-in flashlight,kickstand,laptop charging,
    tablet compatible,65w output,grade a cells,ul certified,lanyard,road trips,power outage,
    smart ic chip,trickle charging,abs shell,soft touch finish,type c input|color,capacity=battery|
    12-80
fashion|Men>Clothing>Shirts>Dress Shirts|men's dress shirt,dress shirt,button down shirt|
    long sleeve,slim fit,wrinkle free,regular fit,button down,stretch fabric,cotton blend,
    spread collar,machine wash,business casual,chest pocket,breathable fabric,poplin fabric,
    french cuff,non iron,oxford cloth,twill weave,point collar,barrel cuff,tailored fit,formal wear,
    office wear,stain resistant,moisture wicking,curved hem,back pleat,solid color,pearl buttons,
    pure cotton,broadcloth,herringbone,dobby weave,convertible cuff,cutaway collar,wedding,
    job interview,gingham check,pinstripe,side darts,split yoke,performance fabric,gift for men,
    church wear,sateen finish|color,size=apparel,fit type|16-60
fashion|Men>Clothing>Shirts>T-Shirts|men's t-shirt,t-shirt,graphic tee|short sleeve,crew neck,
    cotton blend,v neck,moisture wicking,regular fit,100% cotton,tagless label,preshrunk,
    machine wash,lightweight fabric,ribbed collar,casual wear,double stitched,breathable fabric,
    ringspun cotton,heavyweight,jersey knit,soft hand feel,classic fit,athletic fit,screen printed,
    vintage wash,shoulder taping,side seamed,fade resistant,gym workout,layering essential,
    gift for men,chest pocket,tri blend,oversized fit,drop shoulder,slub cotton,garment dyed,
    funny graphic,retro design,water based ink,undershirt,organic cotton,recycled polyester,
    boxy fit,anti pilling,curved hem,sports fan|color,size=apparel,fit type|8-35
fashion|Men>Clothing>Pants|men's pants,chino pants,cargo pants,jogger pants|relaxed fit,
    elastic waist,stretch fabric,multi pocket,slim fit,tapered leg,machine wash,cotton blend,
    wrinkle resistant,breathable fabric,durable fabric,casual wear,quick dry,twill fabric,mid rise,
    side pockets,stain resistant,soft hand feel,everyday wear,athletic fit,travel friendly,
    outdoor activities,reinforced seams,easy care,moisture wicking,spandex blend,fade resistant,
    comfort waistband,flat front,belt loops,straight leg,four way stretch,ripstop fabric,
    zippered pockets,gusseted crotch,water repellent,work pants,golf,hiking,smart casual,
    brushed fabric,articulated knees,ankle length,polyester blend|color,size=pants,fit type|18-65
fashion|Men>Clothing>Jeans|men's jeans,denim jeans,jeans|slim fit,straight leg,relaxed fit,
    stretch denim,button fly,classic fit,five pocket,zipper fly,mid rise,machine wash,100% cotton,
    boot cut,tapered leg,fade resistant,ripped knees,selvedge denim,rigid denim,belt loops,
    copper rivets,whiskering,athletic fit,low rise,distressed,workwear,everyday wear,leather patch,
    contrast stitching,cotton spandex,sanforized,skinny fit,loose fit,raw denim,heavyweight denim,
    organic cotton,ring spun,coin pocket,reinforced seams,high rise,flex waistband,chain stitched,
    frayed hem,biker style,western wear,vintage style,sustainable denim|color=denim_wash,size=pants,
    fit type|22-80
fashion|Men>Clothing>Jackets & Coats|men's jacket,winter coat,bomber jacket,rain jacket|
    water resistant,zip closure,detachable hood,fleece lined,windproof,zip pockets,elastic cuffs,
    breathable fabric,adjustable hem,inner pocket,outdoor activities,casual style,machine wash,
    durable fabric,polyester shell,storm flap,ykk zipper,chest pocket,hand warmer pockets,
    reflective details,hiking,commuting,travel,taped seams,regular fit,snap buttons,all weather,
    layering,packable,quilted lining,nylon shell,stand collar,two way zipper,drawcord hood,
    cold weather,fall season,thermal insulation,ripstop,mesh lining,pit zips,military style,
    urban style,lightweight,gift for men|color,size=apparel,fit type|30-160
fashion|Men>Clothing>Shorts|men's shorts,cargo shorts,swim trunks|elastic waist,quick dry,
    drawstring closure,multi pocket,relaxed fit,lightweight fabric,side pockets,machine wash,
    summer style,breathable fabric,stretch fabric,casual wear,back pocket,beach vacation,
    knee length,9 inch inseam,polyester blend,uv protection,zip pocket,hiking,outdoor activities,
    moisture wicking,fade resistant,camping,everyday wear,durable stitching,soft waistband,
    athletic fit,7 inch inseam,cargo pockets,four way stretch,ripstop fabric,water repellent,
    swimming,fishing,boating,pool party,tropical print,nylon fabric,cotton twill,belt loops,
    key loop,gym workout,flat front|color,size=apparel,fit type|12-40
fashion|Men>Shoes>Sneakers|men's sneakers,running shoes,walking shoes|non slip,rubber sole,
    breathable mesh,memory foam,lace up,arch support,lightweight design,shock absorbing,knit upper,
    wide toe box,cushioned collar,removable insole,gym workout,everyday wear,eva midsole,
    padded tongue,flexible outsole,heel support,reflective details,wide width,athletic style,
    jogging,plantar fasciitis,orthotic friendly,casual style,breathable lining,pull tab,
    travel friendly,sock like fit,rocker sole,gel cushioning,air cushion,non marking,traction,
    treadmill,tennis,nurses,standing all day,diabetic friendly,machine washable,vegan materials,
    low top,toe protection,recycled materials|color,size=shoe|25-120
fashion|Men>Shoes>Boots|men's boots,work boots,chelsea boots|steel toe,waterproof,slip resistant,
    leather upper,rubber sole,ankle support,pull on,oil resistant,cushioned insole,goodyear welt,
    round toe,anti fatigue,shock absorbing,all day comfort,full grain leather,pull tabs,
    padded collar,lug outsole,heel counter,durable stitching,breathable lining,removable insole,
    ankle height,heat resistant,wide width,casual wear,outdoor work,rugged style,composite toe,
    elastic side panels,suede,thinsulate insulation,electrical hazard,puncture resistant,lace up,
    side zipper,moc toe,crepe sole,oiled leather,nubuck,construction work,motorcycle riding,
    cold weather,vibram sole|color,size=shoe|40-180
fashion|Women>Clothing>Dresses|women's dress,maxi dress,midi dress,cocktail dress|short sleeve,
    v neck,a line,floral print,high waist,flowy fabric,pockets,sleeveless,wrap style,ruffle hem,
    elastic waist,wedding guest,summer style,fully lined,tie waist,square neck,smocked bodice,
    puff sleeve,long sleeve,side slit,back zipper,polka dot,empire waist,date night,formal occasion,
    wrinkle resistant,hand wash,ruched detail,spaghetti straps,soft fabric,chiffon fabric,satin,
    lace overlay,off shoulder,halter neck,sweetheart neckline,flutter sleeve,button front,
    bridesmaid,graduation,beach wedding,boho style,church wear,bodycon,tiered skirt,keyhole back|
    color,size=apparel,fit type|18-90
fashion|Women>Clothing>Tops & Blouses|women's blouse,tunic top,tank top,women's shirt|v neck,
    loose fit,chiffon fabric,casual style,sleeveless,scoop neck,flowy fabric,lightweight fabric,
    lace trim,floral print,summer style,machine wash,breathable fabric,layering piece,crew neck,
    ribbed knit,soft rayon,cotton blend,curved hem,solid color,office wear,stretchy fabric,
    polka dot,tie dye,date night,vacation,slim fit,dressy casual,button front,henley,cowl neck,
    boat neck,flutter sleeve,peplum,high low hem,tie front,satin,linen blend,modal fabric,eyelet,
    embroidered,babydoll,boho style,semi sheer|color,size=apparel,fit type|12-45
fashion|Women>Clothing>Leggings|women's leggings,yoga pants,workout leggings|high waist,
    tummy control,squat proof,four way stretch,moisture wicking,butt lift,hidden pocket,
    buttery soft,non see through,compression fit,seamless design,gym workout,ankle length,quick dry,
    side pockets,wide waistband,gusseted crotch,flatlock seams,nylon spandex,full length,
    yoga practice,running,pilates,loungewear,brushed fabric,anti pilling,breathable fabric,
    sculpting fit,capri length,crossover waistband,phone pocket,matte finish,fleece lined,maternity,
    camo print,ribbed knit,cross training,barre,hiking,naked feel,polyester spandex,
    drawstring waist,uv protection,cotton spandex|color,size=apparel,fit type|12-45
fashion|Women>Clothing>Jeans|women's jeans,skinny jeans,mom jeans|high waist,stretch denim,
    distressed,button closure,five pocket,zipper fly,machine wash,raw hem,ankle length,curvy fit,
    tummy control,cotton blend,fade resistant,casual style,belt loops,butt lift,ripped knees,
    whiskering,vintage style,soft denim,everyday wear,mid rise,back pockets,contrast stitching,
    leather patch,copper rivets,spandex blend,full length,skinny fit,straight leg,wide leg,bootcut,
    flare leg,boyfriend fit,cropped,rigid denim,slimming,pull on,cuffed hem,patch pockets,y2k style,
    low rise,organic cotton,coin pocket|color=denim_wash,size=pants,fit type|22-80
fashion|Women>Clothing>Sweaters|women's sweater,cardigan,pullover sweater|long sleeve,crew neck,
    cable knit,oversized fit,soft knit,chunky knit,ribbed cuffs,drop shoulder,wool blend,
    warm and cozy,cold weather,layering piece,anti pilling,hand wash,cashmere blend,merino wool,
    acrylic yarn,ribbed hem,relaxed fit,fall winter,office wear,lightweight knit,waffle texture,
    side slits,casual style,itch free,machine washable,holiday gift,v neck,turtleneck,mock neck,
    open front,cropped,longline,fuzzy,mohair blend,alpaca,fair isle,balloon sleeve,pointelle,
    chenille,cotton blend,patch pockets,christmas|color,size=apparel,fit type|20-70
fashion|Women>Clothing>Swimsuits|women's swimsuit,bikini set,one piece swimsuit|tummy control,
    padded cups,adjustable straps,quick dry,high waist,removable pads,chlorine resistant,upf 50,
    ruched design,v neck,tie back,full coverage,fully lined,push up,beach vacation,nylon spandex,
    four way stretch,halter neck,criss cross back,pool party,tropical print,color block,
    high cut leg,fade resistant,wireless support,slimming fit,ribbed fabric,honeymoon,soft fabric,
    underwire,bandeau,triangle top,high neck,cheeky bottom,scoop back,racerback,cutout,shelf bra,
    water aerobics,animal print,recycled nylon,sweetheart neckline,one shoulder,long torso,
    twist front|color,size=apparel,fit type|16-55
fashion|Women>Clothing>Activewear|sports bra,workout set,running shorts|moisture wicking,quick dry,
    four way stretch,breathable fabric,lightweight fabric,gym workout,seamless design,flat seams,
    anti chafing,athletic fit,compression fit,machine wash,yoga practice,odor resistant,
    reflective details,nylon spandex,mesh panels,running,hiit training,pilates,soft hand feel,
    cooling fabric,tagless,color block,recycled polyester,cycling,tennis,sun protection,racerback,
    removable pads,high impact,built-in liner,zip pocket,high waist,matching set,longline,
    butter soft,wire free,dance,barre,cross training,boxing,bamboo fabric,marathon|color,
    size=apparel,fit type|12-50
fashion|Women>Shoes>Sandals|women's sandals,flip flops,platform sandals,slide sandals|open toe,
    arch support,cushioned footbed,non slip,rubber sole,slip on,lightweight design,waterproof,
    memory foam,beach vacation,summer style,casual style,orthopedic design,vegan leather,eva sole,
    textured outsole,quick dry,poolside,shower friendly,anti odor,flexible sole,wide width,
    plantar fasciitis,indoor outdoor,travel friendly,easy clean,padded straps,heel cup,
    adjustable buckle,toe post,cork footbed,wedge heel,ankle strap,braided strap,metallic finish,
    rhinestone,faux leather,boho style,gladiator,pillow soft,post workout recovery,massage nubs,
    hook and loop,festival|color,size=shoe|15-70
fashion|Women>Shoes>Heels|high heels,pumps,block heels,stiletto heels|pointed toe,ankle strap,
    slip on,comfortable heel,patent leather,cushioned insole,non slip sole,closed toe,faux suede,
    wedding party,office wear,elegant style,wide width,classic style,stable heel,padded footbed,
    leather lining,faux leather,arch support,rubber outsole,prom,bridal,cocktail party,
    formal events,dress shoes,chic design,sleek silhouette,shock absorbing,almond toe,peep toe,
    slingback,satin,glitter,rhinestone,metallic finish,buckle closure,mary jane,square toe,
    graduation,homecoming,date night,velvet,bow detail,bridesmaid|color,size=shoe|25-95
fashion|Women>Shoes>Flats|ballet flats,loafers,women's flats|slip on,round toe,memory foam,
    flexible sole,pointed toe,non slip sole,lightweight design,office wear,vegan leather,
    cushioned insole,faux suede,everyday wear,wide width,breathable lining,arch support,padded heel,
    rubber outsole,casual style,work shoes,classic style,genuine leather,walking comfort,
    low profile,travel friendly,elegant style,all day comfort,shock absorbing,anti odor,square toe,
    almond toe,bow detail,foldable,mary jane,patent leather,quilted design,metallic finish,
    pearl detail,knit upper,machine washable,slingback,teachers,commuting,heel grip,leopard print|
    color,size=shoe|18-70
fashion|Women>Handbags & Wallets|handbag,crossbody bag,tote bag,women's wallet|vegan leather,
    zipper closure,multiple pockets,large capacity,card slots,gold hardware,lightweight design,
    water resistant,gift for women,everyday use,durable lining,stylish design,interior zip pocket,
    travel friendly,pu leather,genuine leather,magnetic snap,polyester lining,coin pocket,
    phone compartment,office work,shopping,quilted design,soft texture,metal zipper,dust bag,
    casual style,rfid blocking,detachable strap,top handle,saffiano leather,woven design,canvas,
    key clip,id window,silver hardware,structured shape,date night,college,mothers day,vacation,
    crocodile embossed,pebbled leather,wristlet strap|color,style=accessory_style|15-120
fashion|Women>Jewelry>Necklaces|necklace,pendant necklace,choker necklace|sterling silver,
    gold plated,hypoallergenic,adjustable chain,gift box,cubic zirconia,nickel free,lead free,
    tarnish resistant,dainty design,lobster clasp,minimalist style,stainless steel,gift for women,
    14k gold,extender chain,layering,birthday gift,mothers day gift,valentines day,anniversary gift,
    waterproof,handmade,everyday wear,jewelry pouch,polished finish,sparkling design,
    bridesmaid gift,18k gold,paperclip chain,freshwater pearl,birthstone,initial letter,lab diamond,
    crystal,spring ring clasp,925 stamped,rhodium plated,vermeil,teen girls,graduation gift,
    christmas gift,girlfriend gift,chunky style|color=metal_color,style=accessory_style|12-90
fashion|Women>Jewelry>Earrings|earrings,stud earrings,hoop earrings|sterling silver,hypoallergenic,
    gold plated,cubic zirconia,nickel free,gift box,sensitive ears,tarnish resistant,
    lightweight design,dainty design,stainless steel,minimalist style,gift for women,everyday wear,
    14k gold,secure closure,lead free,polished finish,birthday gift,valentines day,anniversary gift,
    waterproof,handmade,jewelry pouch,sparkling design,pierced ears,mothers day gift,
    comfortable wear,18k gold,freshwater pearl,birthstone,huggie style,screw back,lever back,
    lab diamond,crystal,rhodium plated,925 stamped,teen girls,christmas gift,graduation gift,
    cartilage friendly,vermeil,titanium post|color=metal_color,style=accessory_style|8-60
fashion|Women>Jewelry>Rings|ring,engagement ring,stackable rings|sterling silver,cubic zirconia,
    rose gold plated,hypoallergenic,adjustable size,moissanite,comfort fit,tarnish resistant,
    nickel free,gift box,anniversary gift,white gold plated,dainty design,polished finish,14k gold,
    brilliant cut,prong setting,stainless steel,birthday gift,valentines day,bridal,jewelry pouch,
    sparkling design,lead free,waterproof,handmade,minimalist style,everyday wear,18k gold,
    lab diamond,halo setting,solitaire,eternity band,princess cut,oval cut,promise ring,
    wedding band,birthstone,925 stamped,ring box,pave setting,gra certified,thin band,vvs clarity|
    color=metal_color,size=ring|10-120
fashion|Novelty & More>Hats & Caps|baseball cap,beanie,sun hat,bucket hat|one size,unisex design,
    soft material,lightweight design,cotton blend,packable design,hand wash,outdoor activities,
    casual style,embroidered logo,stretch fit,everyday wear,travel friendly,classic style,
    breathable fabric,moisture wicking,hiking,camping,fishing,golf,solid color,fashion accessory,
    comfortable fit,durable stitching,machine washable,sweat absorbent,soft lining,gift idea,
    sun protection,quick dry,reversible,foldable,vintage washed,cotton twill,polyester fabric,
    mesh panels,unstructured,beach,running,gardening,music festival,patch design,plaid,kids size|
    color,style=accessory_style|8-35
fashion|Novelty & More>Socks|crew socks,ankle socks,compression socks|cushioned sole,
    moisture wicking,arch support,breathable cotton,reinforced heel,seamless toe,odor resistant,
    anti blister,machine wash,men and women,everyday wear,durable knit,ribbed cuff,gym workout,
    merino wool,cotton blend,running,hiking,nylon spandex,bamboo fiber,mesh ventilation,stay up fit,
    all season,soft yarn,colorfast,athletic style,travel friendly,casual wear,wool blend,thermal,
    diabetic friendly,nurses,non binding,argyle,striped,funny pattern,acrylic blend,coolmax fiber,
    basketball,cycling,tennis,shrink resistant,heel tab,y heel|color=sock_color,size=apparel,
    item package quantity=count|8-30
fashion|Kids>Clothing|kids t-shirt,toddler dress,kids pajamas,kids hoodie|soft cotton,cartoon print,
    machine wash,tagless label,breathable fabric,cute design,gift for kids,easy care,
    comfortable fit,skin friendly,durable fabric,fade resistant,playtime,lightweight fabric,
    organic cotton,boys and girls,back to school,everyday wear,birthday party,animal print,
    colorful design,long sleeve,cozy feel,stretchy fabric,preshrunk,oeko tex certified,
    family matching,easy dressing,ribbed cuffs,fleece lined,snug fit,glow print,dinosaur print,
    unicorn design,superhero,christmas,halloween,bamboo viscose,hypoallergenic,cpsia compliant,
    room to grow,daycare,sleepover,cotton jersey|color,size=kids,fit type|8-35
fashion|Luggage & Travel Gear|luggage,backpack,duffel bag,carry on suitcase|water resistant,
    expandable,lightweight design,multiple pockets,durable construction,airline approved,
    large capacity,reinforced handles,smooth zippers,business travel,weekend trips,
    interior organizer,unisex design,oxford fabric,scratch resistant,compression straps,
    family vacation,road trips,hidden pocket,anti theft pocket,lockable zippers,shoe compartment,
    luggage tag,easy to clean,padded interior,heavy duty,carry handle,tsa lock,laptop compartment,
    usb charging port,wet pocket,trolley sleeve,ykk zippers,ripstop nylon,waterproof bottom,
    foldable,personal item,overnight trips,honeymoon,water bottle pocket,1680d polyester,
    leather trim,lifetime warranty|color,size=luggage|25-220
fashion|Men>Accessories>Watches|men's watch,wrist watch,quartz watch|stainless steel,
    water resistant,quartz movement,leather strap,date display,chronograph,luminous hands,
    scratch resistant,sapphire crystal,analog display,gift box,business casual,japanese movement,
    minimalist style,mineral glass,pin buckle,casual style,sport style,gift for men,
    fathers day gift,large dial,roman numerals,alloy case,mesh band,battery included,classic design,
    easy to read,precise timekeeping,silicone strap,link bracelet,folding clasp,10 atm,tachymeter,
    rotating bezel,sunray dial,arabic numerals,slim case,24 hour display,anniversary gift,
    graduation gift,dress watch,diver style,pilot style,field watch|color=metal_color,
    style=accessory_style|20-250
food|Snack Foods>Chips & Crisps|potato chips,tortilla chips,veggie chips,kettle chips|sea salt,
    baked,low sodium,gluten free,non gmo,crunchy texture,party size,single serve,
    no artificial colors,avocado oil,plant based,zero trans fat,kosher certified,
    individually wrapped,resealable bag,vegan,sunflower oil,bold flavor,kettle cooked,lunch box,
    no msg,cholesterol free,lightly salted,dairy free,peanut free,small batch,simple ingredients,
    game day,family size,thick cut,ridged,jalapeno,bbq flavor,cheddar cheese,spicy,air fried,
    olive oil,low fat,low calorie,movie night,picnic,soy free,no artificial flavors,
    100 calorie packs,gourmet|flavor name,size=food_size|4-35
food|Snack Foods>Nuts & Seeds|mixed nuts,almonds,cashews,pistachios,trail mix|roasted salted,raw,
    unsalted,dry roasted,heart healthy,high fiber,high protein,keto friendly,non gmo,resealable bag,
    bulk pack,gluten free,healthy snack,kosher certified,vegan,cholesterol free,paleo friendly,
    healthy fats,on the go,fresh roasted,premium quality,office snack,lunch box,dairy free,
    plant protein,low carb,energy boost,family size,whole nuts,organic,california grown,
    no added sugar,no added oil,vitamin e,magnesium rich,antioxidants,baking,salad topping,
    snack packs,gift basket,holiday gift,mediterranean diet,whole30 approved,soy free|
    flavor name=nut_flavor,size=food_size|7-45
food|Snack Foods>Jerky|beef jerky,turkey jerky,meat sticks|pasture raised,high protein,
    no preservatives,teriyaki,smoked,low carb,keto friendly,gluten free,individually wrapped,
    sugar free,no nitrites,small batch,resealable bag,msg free,healthy snack,grass fed,
    tender texture,marinated,antibiotic free,hormone free,paleo friendly,whole30 approved,on the go,
    hiking snack,dairy free,soy free,lean protein,made in usa,naturally cured,bulk pack,camping,
    road trips,fishing,hunting,shelf stable,thick cut,carnivore diet,low fat,low calorie,
    usda inspected,sea salt,garlic,bbq flavor,gift basket,fathers day|flavor name=jerky_flavor,
    size=food_size|8-45
food|Snack Foods>Protein Bars|protein bar,granola bar,energy bar|high protein,low sugar,whole grain,
    chocolate chip,peanut butter,dairy free,gluten free,individually wrapped,non gmo,plant based,
    high fiber,rolled oats,no artificial sweeteners,kosher certified,healthy snack,soy free,vegan,
    chewy texture,post workout,hiking snack,on the go,lunch box,low calorie,sustained energy,
    simple ingredients,keto friendly,kid friendly,whey protein,dark chocolate,almond butter,
    collagen,pea protein,date sweetened,monk fruit,nut free,egg free,low sodium,20g protein,
    yogurt coating,breakfast bar,meal replacement,pre workout,weight management,chia seeds,omega 3|
    flavor name,item package quantity=count|10-45
food|Snack Foods>Cookies|cookies,shortbread cookies,sandwich cookies|chocolate chip,real butter,
    family size,whole wheat,individually wrapped,no artificial colors,gluten free,nut free,
    kosher certified,gift tin,bite size,non gmo,cane sugar,crunchy texture,palm oil free,vegan,
    no preservatives,lunch box,holiday gift,party snack,afternoon tea,classic recipe,bakery style,
    small batch,no corn syrup,dairy free,egg free,kid friendly,soft baked,crispy,double chocolate,
    danish style,snack packs,100 calorie packs,sugar free,low sugar,oat flour,almond flour,
    real vanilla,care package,office snack,shelf stable,plant based,coffee pairing|flavor name,
    size=food_size|4-30
food|Candy & Chocolate>Chocolate|chocolate bar,dark chocolate,milk chocolate,chocolate truffles|
    fair trade,sea salt,caramel filled,gift box,real cocoa,non gmo,gluten free,kosher certified,
    individually wrapped,belgian chocolate,smooth texture,ethically sourced,holiday gift,
    no artificial flavors,cocoa butter,rainforest alliance,valentines day,birthday gift,mothers day,
    rich flavor,sharing size,party favors,stocking stuffer,no palm oil,single origin,handcrafted,
    easter basket,corporate gift,cacao nibs,high cacao,swiss chocolate,hazelnut,almonds,raspberry,
    praline filling,ganache center,organic cocoa,vegan,bean to bar,christmas gift,thank you gift,
    assorted flavors,baking,gourmet|flavor name,size=food_size|5-50
food|Candy & Chocolate>Gummies|gummy candy,gummy bears,sour candy|fruit flavored,sour coating,
    gelatin free,real fruit juice,fat free,vegan friendly,gluten free,no artificial colors,
    peanut free facility,resealable bag,party size,chewy texture,low sugar,kosher certified,
    individually wrapped,pectin based,dairy free,non gmo,assorted flavors,corn syrup free,
    natural flavors,party favors,stocking stuffer,easter basket,made in usa,bulk candy,plant based,
    halal certified,tangy taste,sweet and sour,halloween treat,candy buffet,movie night,
    classic candy,bite sized,kids treat,office snack,sugar coated,tree nut free,egg free,soy free,
    birthday party,road trip,colorful shapes|flavor name,size=food_size|4-28
food|Beverages>Coffee|ground coffee,whole bean coffee,coffee pods,instant coffee|medium roast,
    dark roast,light roast,single origin,arabica beans,decaf,fair trade,usda organic,low acid,
    bold flavor,freshly roasted,rainforest alliance,kosher certified,smooth taste,small batch,
    non gmo,gluten free,shade grown,high altitude,full bodied,chocolate notes,nitrogen flushed,
    sustainably sourced,specialty grade,direct trade,keto friendly,caffeinated,mycotoxin tested,
    nutty notes,fruity notes,caramel notes,low bitterness,bird friendly,family owned,roasted in usa,
    carbon neutral,compostable packaging,morning brew,office coffee,balanced acidity,clean finish,
    velvety body,coffee lover gift,latin american|flavor name=coffee_flavor,size=food_size|8-50
food|Beverages>Tea|green tea,black tea,herbal tea,matcha powder|antioxidant rich,usda organic,
    non gmo,kosher certified,sugar free,zero calories,no artificial flavors,fair trade certified,
    ethically sourced,hot or iced,smooth taste,gluten free,premium quality,rich aroma,hand picked,
    pesticide free,small batch,rainforest alliance,resealable pouch,cold brew,plastic free,
    sustainably grown,single origin,keto friendly,vegan friendly,all natural,lab tested,whole leaf,
    afternoon tea,tea lovers,calming aroma,earthy flavor,naturally sweet,latte friendly,
    wellness blend,immune support,mindful ritual,compostable packaging,nitrogen sealed,home brewing,
    office break,everyday drinking,family owned,fresh harvest|flavor name=tea_flavor,
    item package quantity=count|5-35
food|Beverages>Juices & Water|sparkling water,coconut water,fruit juice,electrolyte drink|
    no sugar added,electrolytes,natural flavors,bpa free packaging,non gmo,gluten free,
    kosher certified,caffeine free,hydrating,no artificial sweeteners,refreshing taste,single serve,
    shelf stable,ready to drink,vegan friendly,recyclable packaging,low calorie,usda organic,
    allergen free,plant based,on the go,post workout,fat free,dairy free,soy free,made in usa,
    lunch box,nut free,keto friendly,paleo friendly,vitamin enriched,potassium rich,
    thirst quenching,naturally sweetened,summer drink,picnic essential,gym bag,kid approved,
    office fridge,family pack,road trip,brunch party,poolside drink,clean label|flavor name,
    item package quantity=count|6-40
food|Beverages>Sports Drinks & Mixes|protein powder,drink mix,electrolyte powder,pre workout|
    sugar free,muscle recovery,easy mixing,keto friendly,gluten free,non gmo,no artificial colors,
    stevia sweetened,third party tested,low calorie,gym workout,soy free,vegan friendly,made in usa,
    sports nutrition,energy boost,nsf certified,dairy free,gmp facility,scoop included,
    clean ingredients,natural flavors,nut free,plant based,athletic performance,endurance training,
    low carb,great taste,hydration support,lean muscle,weight management,fast absorbing,no clumping,
    sucralose free,aspartame free,lactose free,kosher certified,halal certified,crossfit training,
    men and women,daily supplement,fitness enthusiasts,shaker bottle,bulk tub|flavor name,
    size=food_size|12-70
food|Pantry Staples>Pasta & Noodles|pasta,spaghetti,ramen noodles,rice noodles|gluten free,low carb,
    high fiber,quick cooking,non gmo,plant based,kosher certified,bulk pack,no preservatives,
    high protein,egg free,low sodium,easy to prepare,family size,vegan friendly,dairy free,low fat,
    al dente,usda organic,whole grain,nut free,soy free,cholesterol free,shelf stable,meal prep,
    no msg,pantry staple,imported,comfort food,kid friendly,college dorm,halal certified,
    sesame free,low calorie,smooth texture,chewy bite,authentic taste,recyclable packaging,
    weeknight dinner,holds sauce,camping meal,emergency food,trans fat free,versatile recipes|
    size=food_size,item package quantity=count|3-30
food|Pantry Staples>Rice & Grains|rice,quinoa,oats,brown rice|whole grain,high fiber,microwavable,
    gluten free,non gmo,usda organic,bulk pack,quick cooking,kosher certified,resealable bag,
    easy to prepare,low fat,heart healthy,shelf stable,plant based,vegan friendly,sodium free,
    cholesterol free,meal prep,pantry staple,family size,dairy free,nut free,sustainably grown,
    complex carbs,stovetop cooking,premium grade,no additives,fluffy texture,nutty flavor,side dish,
    grain bowl,rice cooker,instant pot,batch cooking,emergency food,soy free,egg free,
    halal certified,single ingredient,glyphosate free,trans fat free,budget friendly,
    weeknight dinner|size=food_size,item package quantity=count|4-40
food|Pantry Staples>Sauces|pasta sauce,hot sauce,bbq sauce,soy sauce|low sodium,no sugar added,
    family recipe,small batch,gluten free,non gmo,keto friendly,no preservatives,glass packaging,
    kosher certified,bold flavor,all natural,fat free,msg free,vegan friendly,dairy free,
    paleo friendly,gourmet,marinade,grilling,usda organic,shelf stable,restaurant quality,
    authentic recipe,no artificial colors,made in usa,plant based,refrigerate after opening,
    dipping sauce,umami flavor,tangy taste,thick consistency,low carb,halal certified,egg free,
    nut free,chef crafted,family size,bulk pack,weeknight dinner,meal prep,hfcs free,pantry staple,
    vegetarian|flavor name=sauce_flavor,size=food_size|4-30
food|Pantry Staples>Condiments & Dressings|salad dressing,mayonnaise,ketchup,mustard|low fat,
    no sugar added,squeeze bottle,vegan friendly,gluten free,keto friendly,non gmo,kosher certified,
    no preservatives,whole30 approved,paleo friendly,dairy free,tangy flavor,family size,
    usda organic,sandwich spread,dipping sauce,low sodium,no artificial flavors,soy free,nut free,
    shelf stable,single serve,restaurant quality,made in usa,all natural,classic recipe,bbq cookout,
    burger topping,picnic essential,food service,smooth texture,hfcs free,halal certified,bulk pack,
    low calorie,bpa free,recyclable bottle,sesame free,marinade base,deli style,gourmet,vegetarian,
    kid favorite|flavor name,size=food_size|3-25
food|Pantry Staples>Spices & Seasonings|seasoning blend,ground cinnamon,black pepper,sea salt|
    gourmet spices,no msg,organic spices,non gmo,kosher certified,gluten free,no fillers,
    non irradiated,bulk pack,resealable bag,all natural,small batch,rich aroma,restaurant quality,
    finely ground,shaker jar,vegan friendly,keto friendly,paleo friendly,whole30 approved,
    ethically sourced,lab tested,everyday cooking,grilling,baking,sugar free,pantry essential,
    dairy free,steam sterilized,bold flavor,recipe ready,glass jar,no anticaking agents,
    single origin,fair trade,halal certified,soy free,nut free,allergen free,holiday cooking,
    home chef,spice rack,airtight container,vibrant color|size=food_size,
    item package quantity=count|4-30
food|Pantry Staples>Oils & Vinegars|olive oil,avocado oil,coconut oil,balsamic vinegar|non gmo,
    usda organic,kosher certified,glass packaging,single origin,gluten free,keto friendly,
    whole30 approved,paleo friendly,rich flavor,sustainably sourced,no additives,small batch,
    family size,salad dressing,marinades,vegan friendly,dairy free,cholesterol free,imported,
    dark bottle,pour spout,gourmet,mediterranean diet,bread dipping,kitchen staple,soy free,
    chef quality,heart healthy,halal certified,no preservatives,lab tested,family owned,
    estate grown,bpa free,recyclable packaging,bulk pack,roasted vegetables,drizzling,
    finishing touch,nut free,award winning,traceable origin,food service|size=food_size,
    item package quantity=count|6-40
food|Pantry Staples>Baking Supplies|baking mix,almond flour,cake mix,pancake mix|gluten free,
    keto friendly,almond flour,easy to make,low sugar,non gmo,kosher certified,grain free,
    high protein,no preservatives,paleo friendly,dairy free,resealable bag,family size,
    vegan friendly,egg free,soy free,low carb,home baking,all natural,fiber rich,usda organic,
    no artificial flavors,made in usa,bakery quality,diabetic friendly,shelf stable,pantry staple,
    fluffy texture,homemade taste,finely milled,halal certified,bulk pack,corn free,yeast free,
    low glycemic,kid friendly,versatile recipes,holiday treats,sustainably sourced,recipe included,
    trans fat free,simple ingredients,clean label|flavor name,size=food_size|4-30
food|Breakfast Foods>Cereal|cereal,granola,oatmeal cups|whole grain,high fiber,low sugar,
    heart healthy,added vitamins,gluten free,non gmo,high protein,plant based,kosher certified,
    real fruit,no artificial flavors,usda organic,ancient grains,vegan friendly,dairy free,nut free,
    soy free,on the go,kids breakfast,family size,low fat,cholesterol free,iron fortified,
    no corn syrup,low sodium,resealable bag,healthy snack,morning fuel,omega 3,flax seeds,
    chia seeds,probiotics,low glycemic,keto friendly,halal certified,egg free,sesame free,
    office snack,bulk pack,single serve,calcium fortified,no artificial colors,sustainably sourced|
    flavor name,size=food_size|4-30
food|Breakfast Foods>Spreads|peanut butter,almond butter,honey,fruit jam|non gmo,usda organic,
    gluten free,kosher certified,glass jar,no preservatives,all natural,small batch,family owned,
    squeeze bottle,single serve,rich flavor,shelf stable,dairy free,no palm oil,no added sugar,
    toast topping,sandwich spread,made in usa,bpa free,cholesterol free,soy free,kid friendly,
    lunch box,baking ingredient,no artificial colors,no corn syrup,simple ingredients,
    smoothie add in,oatmeal topping,pancake topping,vegetarian,halal certified,bulk pack,
    family size,spreadable,breakfast staple,snack time,cracker pairing,natural energy,
    tamper evident,sustainably sourced,farm fresh,gift jar|flavor name=spread_flavor,size=food_size|
    5-35
food|Dairy, Cheese & Eggs|cheese,cheese crisps,shelf stable milk,powdered milk|lactose free,
    grass fed,shelf stable,high calcium,high protein,gluten free,rbst free,non gmo,usda organic,
    kosher certified,no preservatives,pasture raised,vitamin d added,no artificial colors,
    real dairy,antibiotic free,family farms,made in usa,low carb,no added sugar,halal certified,
    bulk pack,vegetarian,creamy texture,farm fresh,pantry staple,resealable pouch,all natural,
    keto friendly,emergency food,camping,travel friendly,nutrient dense,bone health,protein snack,
    kid friendly,lunch box,vitamin a,rich taste,small batch,humane certified,baking ingredient,
    on the go,single serve|flavor name,size=food_size|5-40
food|Meat & Seafood|canned tuna,smoked salmon,canned chicken,sardines|boneless skinless,
    high protein,ready to eat,keto friendly,gluten free,low carb,paleo friendly,whole30 approved,
    shelf stable,bpa free packaging,responsibly sourced,no preservatives,easy open,non gmo,
    low sodium,dairy free,soy free,meal prep,salad topper,sandwich filling,camping food,on the go,
    low fat,msg free,sugar free,fully cooked,pantry staple,emergency food,lean protein,backpacking,
    hiking,office lunch,pasta topping,recyclable can,nitrate free,kosher certified,halal certified,
    hand packed,traceable source,nutrient dense,no fillers,simple ingredients,egg free,nut free|
    flavor name,item package quantity=count|6-55
food|Gift Baskets|gift basket,snack box,care package,holiday gift set|gourmet snacks,gift box,
    assorted variety,holiday gift,birthday gift,individually wrapped,corporate gift,thank you gift,
    sympathy gift,sweet and savory,hand packed,college students,gift for women,kosher certified,
    gift for men,get well soon,mothers day,fathers day,christmas,valentines day,anniversary,
    housewarming,ready to give,greeting card included,office party,family sharing,
    employee appreciation,graduation,decorative packaging,ribbon wrapped,curated selection,
    gift for kids,teacher appreciation,retirement gift,new parents,congratulations,friendship gift,
    thanksgiving,easter,hanukkah,shareable snacks,family owned,nurse appreciation,missing you|
    style=gift_style,item package quantity=count|20-95
food|Baby Foods|baby food pouches,baby formula,baby snacks,teething wafers|no added sugar,
    organic ingredients,easy to digest,iron fortified,non gmo,no preservatives,gluten free,
    no artificial colors,pediatrician recommended,kosher certified,nut free,probiotic cultures,
    made in usa,heavy metal tested,bpa free,infant nutrition,toddler approved,on the go,
    no added salt,allergen friendly,soy free,travel friendly,clean ingredients,pesticide free,
    glyphosate free,egg free,vitamin rich,daycare friendly,immune support,brain development,
    prebiotic fiber,nutrient dense,halal certified,wheat free,corn free,sesame free,vegetarian,
    nutritionist developed,family owned,recyclable packaging,diaper bag,mom approved,
    b corp certified,growing babies|flavor name,item package quantity=count|8-45
furniture|Living Room Furniture>Sofas & Couches|sofa,loveseat,sectional couch,futon|mid century,
    velvet fabric,removable cushions,solid wood legs,convertible design,tufted backrest,
    high density foam,easy assembly,living room,deep seat,pet friendly,performance fabric,
    throw pillows included,sturdy frame,linen fabric,faux leather,chenille upholstery,
    stain resistant,pocket coils,kiln dried frame,apartment size,rolled arms,plush cushions,
    boucle fabric,modern design,upholstered,family room,easy clean,scratch resistant,down filled,
    tight back,track arms,microfiber upholstery,tapered legs,metal legs,low profile,lounge seating,
    movie night,guest seating,weight capacity,fade resistant,pilling resistant,scandinavian style,
    corduroy fabric,high back|color,material type|180-990
furniture|Living Room Furniture>Chairs|accent chair,armchair,recliner chair,rocking chair|
    mid century,upholstered,high back,swivel base,padded seat,lumbar pillow,living room,
    reading nook,linen fabric,boucle fabric,wide seat,sturdy frame,easy assembly,nursery room,
    solid wood legs,velvet fabric,faux leather,high density foam,bedroom,pocket springs,
    ergonomic design,weight capacity,modern design,button tufted,oversized,stain resistant,
    padded armrests,thick cushion,wide armrests,deep seat,sherpa fabric,chenille fabric,
    corduroy fabric,performance fabric,scandinavian style,farmhouse style,tv watching,home office,
    guest room,anti slip feet,easy clean,pet friendly,fade resistant,steel frame|color,
    material type|60-450
furniture|Living Room Furniture>Coffee Tables|coffee table,side table,end table,nesting tables|
    solid wood,tempered glass,storage shelf,round shape,rustic finish,metal frame,space saving,
    faux marble,living room,farmhouse design,hairpin legs,industrial design,water resistant,
    easy assembly,mid century,drawer storage,scratch resistant,engineered wood,sturdy frame,
    minimalist style,small space,heat resistant,boho style,adjustable feet,acacia wood,
    modern design,wood grain,rounded corners,easy clean,walnut finish,oak finish,tapered legs,
    pedestal base,sofa side,bedroom,display space,plant stand,weight capacity,stain resistant,
    mango wood,coastal style,scandinavian style,japandi style,magazine storage,apartment size|color,
    size=table_size|40-300
furniture|Living Room Furniture>TV Stands|tv stand,media console,entertainment center|
    storage cabinet,cable management,open shelves,farmhouse style,led lights,sliding barn door,
    glass doors,built-in outlets,engineered wood,mid century,adjustable shelves,soft close,anti tip,
    living room,wood grain,weight capacity,easy assembly,sturdy frame,gaming console,rustic finish,
    high gloss,metal legs,modern design,bedroom,scratch resistant,drawer storage,minimalist style,
    water resistant,ventilation holes,soundbar shelf,media storage,adjustable feet,metal frame,
    tempered glass,fluted design,walnut finish,oak finish,heavy duty,home theater,family room,
    hidden storage,credenza style,display shelves,large tvs,game room|color,size=table_size|60-400
furniture|Living Room Furniture>Bookcases|bookcase,bookshelf,ladder shelf,cube organizer|
    open shelves,wall anchor,sturdy frame,industrial style,engineered wood,space saving,
    easy assembly,home office,living room,adjustable feet,weight capacity,freestanding,kids room,
    modern design,metal frame,solid wood,rustic finish,farmhouse style,display shelf,bedroom,
    mid century,scratch resistant,minimalist style,wood grain,plant stand,study room,
    water resistant,small space,heavy duty,narrow design,open back,walnut finish,oak finish,
    white finish,classroom,library,dorm room,entryway,nursery,book storage,toy storage,
    reinforced shelves,carbon steel,vertical storage|color,size=shelf_size|35-260
furniture|Bedroom Furniture>Beds & Frames|bed frame,platform bed,bunk bed,upholstered bed|
    no box spring needed,wood slats,headboard included,under bed storage,noise free,easy assembly,
    heavy duty,weight capacity,solid wood,sturdy frame,space saving,bedroom,mid century,metal frame,
    guest room,kids room,anti slip,center support legs,mattress foundation,modern design,
    farmhouse style,rustic finish,scratch resistant,easy clean,dorm room,pine wood,rounded corners,
    teen room,vacation home,memory foam compatible,industrial style,scandinavian style,
    natural finish,minimalist style,reinforced joints,stable base,tool free,wobble free,
    durable construction,eco friendly,cabin style,compact design,airbnb rental|color,size=bed_size|
    120-900
furniture|Bedroom Furniture>Mattresses|mattress,memory foam mattress,mattress topper|memory foam,
    cooling gel,medium firm,pressure relief,motion isolation,certipur certified,breathable cover,
    hypoallergenic,fiberglass free,spine alignment,plush comfort,non toxic,odor free,
    dust mite resistant,compressed packaging,back pain relief,side sleepers,temperature regulating,
    removable cover,non slip bottom,zoned support,green tea infused,adjustable base compatible,
    deep sleep,ventilated design,high density,organic cotton,quilted top,edge support,
    charcoal infused,copper infused,back sleepers,stomach sleepers,combination sleepers,
    hot sleepers,oeko tex certified,natural latex,hip support,low voc,sag resistant,contouring feel,
    guest room,made in usa,hotel quality|size=bed_size,material type|90-900
furniture|Bedroom Furniture>Dressers|dresser,chest of drawers,nightstand|wood grain,anti tip,
    metal handles,smooth glide,solid wood,easy assembly,engineered wood,bedroom,storage space,
    soft close,mid century,farmhouse style,scratch resistant,sturdy frame,deep drawers,
    ball bearing slides,rustic finish,modern design,living room,kids room,nursery room,small space,
    clothes storage,dovetail joints,minimalist style,metal frame,wooden top,water resistant,
    drawer stops,interlock system,cutout handles,walnut finish,oak finish,white finish,guest room,
    dorm room,hallway,fluted design,rattan accents,industrial style,scandinavian style,
    coastal style,weight capacity,large capacity|color,size=drawer_count|60-450
furniture|Home Office Furniture>Desks|computer desk,standing desk,writing desk,l-shaped desk|
    monitor shelf,cable management,sturdy frame,keyboard tray,home office,easy assembly,
    storage shelf,metal frame,space saving,headphone hook,water resistant,large desktop,
    adjustable feet,modern design,engineered wood,solid wood,scratch resistant,carbon steel,
    study table,small space,wood grain,ergonomic design,drawer storage,power outlet,usb ports,
    bedroom,rustic finish,anti wobble,led lights,cpu stand,printer shelf,dual monitors,student desk,
    gaming setup,thick desktop,heavy duty,weight capacity,walnut finish,oak finish,industrial style,
    farmhouse style,craft table,remote work,dorm room|color,size=table_size|70-600
furniture|Home Office Furniture>Office Chairs|office chair,gaming chair,desk chair,ergonomic chair|
    lumbar support,adjustable height,breathable mesh,padded armrests,360 swivel,headrest,
    reclining function,caster wheels,weight capacity,high density foam,easy assembly,flip up arms,
    home office,bifma certified,tilt lock,ergonomic design,pu leather,silent casters,gas cylinder,
    waterfall seat,memory foam,big and tall,long hours,nylon base,adjustable armrests,study room,
    breathable fabric,contoured backrest,seat depth adjustment,synchronous tilt,aluminum base,
    wide seat,thick cushion,cold foam,neck support,posture support,heavy duty,hardwood floors,
    pu wheels,conference room,dorm room,executive style,gaming setup,back pain relief|color,
    style=chair_style|60-450
furniture|Kitchen & Dining Room Furniture>Dining Sets|dining table set,dining table,kitchen table|
    seats 4,solid wood,extendable table,counter height,farmhouse style,mid century,easy assembly,
    small space,round shape,metal frame,faux marble,dining room,drop leaf,easy clean,breakfast nook,
    sturdy frame,wood grain,pedestal base,tempered glass,scratch resistant,heat resistant,
    water resistant,apartment size,rustic finish,modern design,engineered wood,trestle base,
    industrial style,seats 6,rectangular shape,thick tabletop,sintered stone,walnut finish,
    oak finish,scandinavian style,coastal style,family dinner,holiday gatherings,bistro style,
    stain resistant,weight capacity,adjustable feet,dinette,game night|color,size=table_size|120-900
furniture|Kitchen & Dining Room Furniture>Bar Stools|bar stool,counter stool,kitchen stool|
    counter height,swivel seat,back support,footrest,faux leather,adjustable height,upholstered,
    metal frame,solid wood,non slip pads,easy assembly,kitchen island,weight capacity,padded seat,
    bar height,armless,gas lift,chrome base,mid century,farmhouse style,modern design,home bar,
    velvet fabric,saddle seat,rustic finish,industrial style,wipe clean,curved backrest,backless,
    rust resistant,pu leather,breakfast bar,spindle back,round seat,stackable,heavy duty,
    scandinavian style,coastal style,woven seat,walnut finish,stain resistant,tufted back,low back,
    pub style|color,item package quantity=count|40-300
furniture|Entryway Furniture|shoe rack,coat rack,storage bench,hall tree|entryway storage,
    space saving,easy assembly,sturdy frame,industrial design,freestanding,mudroom,
    home organization,heavy duty,rustic finish,stable structure,modern design,scratch resistant,
    narrow hallway,metal frame,engineered wood,solid wood,front door,farmhouse style,wood grain,
    weight capacity,adjustable feet,wall anchor,living room,bedroom,small space,water resistant,
    multi functional,walnut finish,oak finish,tool free,garage,closet,dorm room,coastal style,
    scandinavian style,minimalist style,mid century,rust resistant,powder coated,carbon steel,
    anti tip,guest room,apartment living|color,size=shelf_size|25-200
furniture|Bathroom Furniture|bathroom cabinet,over the toilet storage,bathroom shelf|
    moisture resistant,adjustable shelves,small space,easy assembly,anti tip,white finish,
    engineered wood,towel storage,toiletry organization,modern design,farmhouse style,open shelves,
    sturdy frame,easy clean,space saving,bathroom storage,freestanding,wood grain,rustic finish,
    metal frame,laundry room,powder room,linen storage,mildew resistant,rust resistant,
    adjustable feet,shaker style,guest bathroom,narrow design,slim profile,minimalist style,
    coastal style,scandinavian style,mid century,walnut finish,oak finish,apartment bathroom,
    kids bathroom,spa decor,pre drilled holes,heavy duty,weight capacity,wall anchor,tempered glass|
    color,material type|30-220
furniture|Kids' Furniture|kids table and chair set,toy storage organizer,kids bookshelf|
    rounded corners,non toxic paint,easy assembly,kids room,playroom,child safe,sturdy frame,
    easy clean,bright colors,montessori style,toddler friendly,space saving,nursery room,
    durable construction,solid wood,bpa free,anti tip,lightweight,daycare,classroom,reading corner,
    smooth edges,water based finish,low height,gift for kids,homeschool,astm certified,kid sized,
    pine wood,birch plywood,phthalate free,lead free,cpsc compliant,greenguard gold,
    formaldehyde free,preschool,kindergarten,ages 3 plus,boys and girls,scandinavian style,
    natural wood,neutral tones,tool free,waldorf inspired|color,material type|30-200
furniture|Game & Recreation Room Furniture|gaming desk,bean bag chair,floor chair|cup holder,
    game room,ergonomic design,space saving,dorm room,teens and adults,gamer gift,modern design,
    lightweight,easy to move,durable design,bedroom,living room,compact size,gaming setup,
    video games,movie night,playroom,basement,man cave,easy clean,esports,console gaming,
    home theater,teen room,birthday gift,stain resistant,reading nook,kids room,college students,
    lan party,family room,apartment living,guest room,weight capacity,water resistant,pc gaming,
    vr gaming,study space,home office,chill zone,sturdy construction,tv room,anime fans|color,
    size=bag_size|40-350
furniture|Outdoor Furniture|patio furniture set,outdoor chair,porch swing,hammock|weather resistant,
    rust resistant,uv resistant,backyard,garden,weight capacity,easy assembly,fade resistant,
    heavy duty,poolside,sturdy frame,balcony,outdoor use,quick drying,patio,front porch,
    powder coated steel,olefin fabric,cushions included,mildew resistant,breathable fabric,lawn,
    sunroom,outdoor living,summer lounging,deck,coastal style,lake house,textilene fabric,
    boho style,farmhouse style,tropical style,resort style,family gatherings,relaxation,napping,
    rooftop,courtyard,cabin,beach house,fire pit area,outdoor entertaining,stainless steel hardware,
    lightweight design|color,material type|60-900
furniture|Accent Furniture>Ottomans|ottoman,storage ottoman,pouf,footstool|velvet fabric,
    tufted design,round shape,faux leather,living room,footrest,extra seating,lightweight,
    removable cover,linen fabric,high density foam,non slip pads,boho style,weight capacity,
    solid wood legs,bedroom,sturdy frame,easy clean,mid century,modern design,vanity seat,
    nursery room,entryway,dorm room,handmade,compact size,stain resistant,padded top,sherpa fabric,
    chenille fabric,corduroy fabric,knitted cover,teddy fabric,upholstered,kids room,playroom,
    scandinavian style,farmhouse style,coastal style,moroccan style,no assembly,tv room,
    reading corner,apartment living|color,size=ottoman_size|25-180
furniture|Accent Furniture>Mirrors|wall mirror,full length mirror,vanity mirror|metal frame,
    shatterproof,led lighted,hd clarity,frameless design,bedroom,bathroom,round shape,arched top,
    beveled edge,modern design,copper free,easy install,boho style,aluminum frame,hanging hardware,
    living room,entryway,dressing room,silver backing,anti rust,distortion free,
    vertical or horizontal,farmhouse style,wood frame,moisture resistant,minimalist style,
    wall decor,rectangular shape,gold frame,black frame,safety film,tempered glass,hallway,
    walk in closet,mid century,coastal style,art deco,industrial style,dorm room,makeup application,
    rounded corners,lightweight,scandinavian style|color,size=mirror_size|25-260
furniture|Accent Furniture>Room Dividers|room divider,folding screen,privacy screen|folding panels,
    freestanding,privacy protection,portable design,partition wall,lightweight,no assembly,
    space saving,fabric panels,wood frame,double hinged,home office,studio apartment,
    decorative design,paulownia wood,shoji style,classroom,bedroom,living room,dorm room,
    light filtering,metal frame,photo backdrop,boho style,easy storage,support feet,changing area,
    cutout pattern,canvas panels,rattan panels,two sided,reversible design,hide clutter,
    office cubicle,salon,massage room,medical office,wedding decor,asian decor,rustic style,
    scandinavian style,room separator,tall design,sturdy frame|color,size=divider_panels|40-260
furniture|Storage & Organization>Storage Cabinets|storage cabinet,kitchen pantry cabinet,
    file cabinet|adjustable shelves,lockable doors,anti tip,large storage,engineered wood,
    easy assembly,home office,space saving,freestanding,sturdy frame,soft close,white finish,
    durable construction,scratch resistant,powder coated steel,garage storage,laundry room,
    wood grain,hinged doors,utility room,bedroom,moisture resistant,modern design,farmhouse style,
    adjustable feet,drawer storage,home organization,rustic finish,metal shelves,office supplies,
    tall design,glass doors,walnut finish,oak finish,industrial style,scandinavian style,heavy duty,
    weight capacity,wall anchor,craft room,mudroom,kitchen storage,basement,commercial grade|color,
    material type|60-450
furniture|Storage & Organization>Closet Systems|closet organizer,clothes rack,wardrobe closet|
    heavy duty,adjustable shelves,hanging rod,portable closet,space saving,easy assembly,
    metal frame,freestanding,non slip feet,weight capacity,bedroom,rust resistant,shoe storage,
    dorm room,steel tube,clothes storage,walk in closet,laundry room,entryway,side hooks,
    expandable design,adjustable height,small space,powder coated,stable structure,modern design,
    home organization,guest room,double rod,tool free,carbon steel,chrome finish,white finish,
    reach in closet,apartment living,kids room,boutique display,long dresses,heavy coats,mudroom,
    garage,handbag storage,industrial style,seasonal clothing|color,size=shelf_size|25-250
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
    attributes: tuple[str, ...]  # the subcategory's own attributes; each fits all its nouns
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
        subcategories.append(
            Subcategory(
                index=len(subcategories),
                top=top,
                breadcrumb=ROOT_BREADCRUMB[top] + tuple(path.split(">")),
                nouns=tuple(nouns.split(",")),
                attributes=tuple(attributes.split(",")),
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
